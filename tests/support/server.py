"""Run real ``agora`` processes on loopback for tests that need a server (bounded waits)."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, ExitStack, contextmanager
from pathlib import Path

import httpx2

from agora.sandbox.host import free_port, serve_in_thread  # noqa: F401 (the tests import them here)

PYTHON = sys.executable


def connect_loopback(port: int, *, source: str = "127.0.0.1", timeout: float = 5) -> socket.socket:
    """A TCP connection to ``127.0.0.1:port``, or ConnectionRefusedError.

    Before a server listens, a probe from an ephemeral port can be given the very port it dials
    and connect to itself (TCP simultaneous open); its own request then comes back as the
    "answer". Such a connection counts as refused."""
    sock = socket.socket()
    try:
        sock.settimeout(timeout)
        sock.bind((source, 0))
        sock.connect(("127.0.0.1", port))
        if sock.getsockname() == sock.getpeername():
            raise ConnectionRefusedError(f"port {port}: connected to itself, nothing listens")
    except BaseException:
        sock.close()
        raise
    return sock


def port_listens(port: int) -> bool:
    """Whether something listens on ``127.0.0.1:port`` (a self-connect is not listening)."""
    try:
        connect_loopback(port, timeout=0.5).close()
    except OSError:
        return False
    return True


def agora_env(data_dir: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("AGORA_")}
    env.update(
        AGORA_DATA_DIR=str(data_dir),
        AGORA_SECRET_KEY="test-secret-key",
        AGORA_RATE_LIMIT_PUBLIC="off",
        AGORA_RATE_LIMIT_AUTHENTICATED="off",
        AGORA_RATE_LIMIT_FAILED_AUTH="off",
        AGORA_LOG_LEVEL="WARNING",
        AGORA_PASSWORD_HASH_PROFILE="test",  # cheap Argon2 (kit/passwords.py); never production
        AGORA_WIRE_CHECK="true",  # the written lists compared with their schemas (kit/wire.py)
        # Real processes talk to loopback agents in these tests (as the Settings fixture does).
        AGORA_OUTBOUND_ALLOW="127.0.0.0/8,::1/128",
    )
    env.update(extra)
    return env


def run_cli(env: dict[str, str], *args: str) -> str:
    result = subprocess.run(
        [PYTHON, "-m", "agora.cli.main", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    if result.returncode != 0:
        raise AssertionError(f"agora {' '.join(args)} failed: {result.stderr}")
    return result.stdout


def create_user(env: dict[str, str], email: str, credits: str = "0") -> dict[str, str]:
    out = run_cli(
        env, "users", "create", "--email", email, "--name", "T", "--credits", credits, "--json"
    )
    data: dict[str, str] = json.loads(out)
    return data


@contextmanager
def running_server(
    env: dict[str, str],
    *,
    port: int | None = None,
    stdout: Path | None = None,
    startup_seconds: float = 120,
) -> Iterator[str]:
    """Start uvicorn with the app factory; yield its base URL; stop it (always)."""

    def start(chosen: int) -> AbstractContextManager[str]:
        command = [
            "-m", "uvicorn", "--factory", "agora.app:app_from_env", "--host", "127.0.0.1",
            "--port", str(chosen), "--no-access-log", "--log-level", "warning",
        ]  # fmt: skip
        return running_process(env, command, chosen, stdout=stdout, startup_seconds=startup_seconds)

    with on_a_free_port(start, port) as base:
        yield base


class PortTaken(AssertionError):
    """The server could not bind its port: something took it after ``free_port`` chose it."""


PORT_ATTEMPTS = 3


@contextmanager
def on_a_free_port(
    start: Callable[[int], AbstractContextManager[str]], port: int | None
) -> Iterator[str]:
    """``start(port)``, on a fresh free port again (at most ``PORT_ATTEMPTS`` times) when the
    chosen one was taken between choosing and binding: a client socket of another test (or
    xdist worker) may get the same ephemeral port. A port given by the caller is not changed."""
    for attempt in range(1, PORT_ATTEMPTS + 1):
        stack = ExitStack()
        try:
            base = stack.enter_context(start(port or free_port()))
        except PortTaken:
            stack.close()
            if port is not None or attempt == PORT_ATTEMPTS:
                raise
            continue
        with stack:
            yield base
        return


@contextmanager
def running_agora_serve(
    env: dict[str, str], stdout: Path, *, startup_seconds: float = 120, port: int | None = None
) -> Iterator[str]:
    """``agora serve`` exactly as the README runs it (its banner goes to ``stdout``), on
    ``port`` (a free one by default)."""

    def start(chosen: int) -> AbstractContextManager[str]:
        return running_process(
            env, ["-m", "agora.cli.main", "serve", "--port", str(chosen)], chosen,
            stdout=stdout, startup_seconds=startup_seconds,
        )  # fmt: skip

    with on_a_free_port(start, port) as base:
        yield base


@contextmanager
def running_process(
    env: dict[str, str],
    args: list[str],
    port: int,
    *,
    stdout: Path | None = None,
    startup_seconds: float = 120,
) -> Iterator[str]:
    """Run ``python <args>`` until ``/healthz`` answers on ``port`` (``startup_seconds``, 120 by
    default: a loaded machine)."""
    out = stdout.open("wb") if stdout else None
    process = subprocess.Popen(
        [PYTHON, "-u", *args],
        env=env,
        stdout=out or subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + startup_seconds
        while True:
            if process.poll() is not None:
                said = process.stderr.read().decode() if process.stderr else ""
                failure = PortTaken if "address already in use" in said else AssertionError
                raise failure(f"server exited: {said}")
            try:
                if httpx2.get(f"{base}/healthz", timeout=1).status_code == 200:
                    break
            except httpx2.TransportError:
                pass
            if time.monotonic() > deadline:
                raise AssertionError(f"server did not become healthy within {startup_seconds} s")
            time.sleep(0.1)
        yield base
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)
        if out:
            out.close()
