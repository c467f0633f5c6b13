"""Deployment against a real ``agora serve`` process, with real sockets (docs/production.md,
"Deployment"):

- 50 connections that never finish their request headers (half send nothing, half drip a header
  byte every 0.3 s) are all closed within the header timeout plus a margin; an idle keep-alive
  connection is closed after the keep-alive timeout; a normal request on a fresh connection is
  served meanwhile.
- ``AGORA_TRUSTED_PROXIES``: X-Forwarded-For is believed only from the listed peers, and the
  per-address limit counts the address it names. A proxy on "another host" is 127.0.0.2 (the
  whole of 127/8 is loopback on Linux): trusted when listed, ignored otherwise; a client forging
  the header from an untrusted address shares its real address's budget."""

from __future__ import annotations

import contextlib
import select
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.support.server import PYTHON, agora_env, connect_loopback, free_port

pytestmark = pytest.mark.process

HEADER_TIMEOUT = 2.0
KEEP_ALIVE = 2.0
MARGIN = 3.0  # a loaded 2-core machine


@contextmanager
def serve(tmp_path: Path, **extra: str) -> Iterator[tuple[str, int]]:
    env = agora_env(
        tmp_path,
        AGORA_DEMO="false",
        AGORA_RUN_DISPATCHER="false",
        AGORA_HEADER_TIMEOUT_SECONDS=str(HEADER_TIMEOUT),
        AGORA_KEEP_ALIVE_TIMEOUT_SECONDS=str(KEEP_ALIVE),
        **extra,
    )
    port = free_port()
    process = subprocess.Popen(
        [PYTHON, "-m", "agora.cli.main", "serve", "--port", str(port)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 90  # a loaded shared machine starts slowly
        while True:
            assert process.poll() is None, "agora serve exited"
            try:
                if _get(port, "/healthz") == 200:
                    break
            except OSError:
                pass
            assert time.monotonic() < deadline, "agora serve did not answer in 90 s"
            time.sleep(0.2)
        yield "127.0.0.1", port
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=15)


def _connect(port: int, source: str = "127.0.0.1") -> socket.socket:
    return connect_loopback(port, source=source)


def _closed(sock: socket.socket) -> bool:
    """Whether the server closed the connection (EOF or reset), reading what it sent."""
    readable, _, _ = select.select([sock], [], [], 0)
    if not readable:
        return False
    try:
        while True:
            readable, _, _ = select.select([sock], [], [], 0)
            if not readable:
                return False
            if sock.recv(65536) == b"":
                return True
    except OSError:
        return True


def _get(port: int, path: str, *, source: str = "127.0.0.1", forwarded: str | None = None) -> int:
    """One GET on a fresh connection from ``source``; its status."""
    with _connect(port, source) as sock:
        extra = f"X-Forwarded-For: {forwarded}\r\n" if forwarded else ""
        sock.sendall(f"GET {path} HTTP/1.1\r\nHost: t\r\n{extra}Connection: close\r\n\r\n".encode())
        data = b""
        while b"\r\n" not in data:
            chunk = sock.recv(4096)
            assert chunk, "closed before the status line"
            data += chunk
        return int(data.split(b" ", 2)[1])


def test_stuck_connections_are_closed(tmp_path: Path) -> None:
    with serve(tmp_path) as (_host, port):
        silent = [_connect(port) for _ in range(25)]
        dripping = [_connect(port) for _ in range(25)]
        for sock in dripping:
            sock.sendall(b"GET /v1/agents HTTP/1.1\r\nHost: t\r\nX-Slow: ")
        idle = _connect(port)
        idle.sendall(b"GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n")
        assert b"200 OK" in idle.recv(4096)
        started = time.monotonic()
        open_ = {id(s): s for s in [*silent, *dripping, idle]}
        closed_after: dict[int, float] = {}
        served_meanwhile = False
        while open_ and time.monotonic() - started < HEADER_TIMEOUT + MARGIN + 2:
            for sock in dripping:
                if id(sock) in open_:
                    with contextlib.suppress(OSError):
                        sock.sendall(b"a")  # a byte, never the end of the headers
            for key, sock in list(open_.items()):
                if _closed(sock):
                    closed_after[key] = time.monotonic() - started
                    del open_[key]
            if not served_meanwhile:
                served_meanwhile = _get(port, "/healthz") == 200
            time.sleep(0.3)
        for sock in [*silent, *dripping, idle]:
            sock.close()
        assert served_meanwhile
        assert not open_, f"{len(open_)} of 51 connections still open"
        slowest = max(closed_after.values())
        print(f"\n51 stuck connections closed, the last after {slowest:.1f} s")
        assert slowest <= HEADER_TIMEOUT + MARGIN
        assert closed_after[id(idle)] <= KEEP_ALIVE + MARGIN


def test_forwarded_for_is_believed_from_trusted_proxies_only(tmp_path: Path) -> None:
    # The budget: 3 public requests a minute per client address.
    limits = {"AGORA_RATE_LIMIT_PUBLIC": "3/minute"}
    with serve(tmp_path, AGORA_TRUSTED_PROXIES="127.0.0.2/32", **limits) as (_host, port):
        # Through the trusted proxy (127.0.0.2): each client has its own budget.
        for client in range(1, 6):
            codes = [_get(port, "/v1/agents", source="127.0.0.2",
                          forwarded=f"203.0.113.{client}") for _ in range(3)]  # fmt: skip
            assert codes == [200, 200, 200], (client, codes)
        spent = _get(port, "/v1/agents", source="127.0.0.2", forwarded="203.0.113.1")
        assert spent == 429
        # From an untrusted peer (127.0.0.1 is not listed here) the header is ignored: every
        # forged address shares that peer's one budget.
        codes = [_get(port, "/v1/agents", forwarded=f"198.51.100.{n}") for n in range(1, 6)]
        assert codes == [200, 200, 200, 429, 429], codes


def test_default_trusts_loopback_only(tmp_path: Path) -> None:
    limits = {"AGORA_RATE_LIMIT_PUBLIC": "2/minute"}
    with serve(tmp_path, **limits) as (_host, port):
        # 127.0.0.1 (a proxy on the same host) is trusted by default …
        first = [_get(port, "/v1/agents", forwarded="203.0.113.9") for _ in range(3)]
        second = _get(port, "/v1/agents", forwarded="203.0.113.10")
        assert first == [200, 200, 429] and second == 200
        # … another address (here 127.0.0.2) is not: its forged addresses share its budget.
        forged = [_get(port, "/v1/agents", source="127.0.0.2", forwarded=f"192.0.2.{n}")
                  for n in range(1, 4)]  # fmt: skip
        assert forged == [200, 200, 429]
