"""Production proof: real `agora` processes on one PostgreSQL (+ Redis), loopback only.

Run them alone with ``make prove``; they are part of ``make test`` too (PostgreSQL only).
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.conftest import POSTGRES_ADMIN_URL, _admin_execute, _postgres_url, unavailable
from tests.support.server import agora_env, run_cli


@pytest.fixture
def postgres_env(tmp_path: Path) -> Iterator[dict[str, str]]:
    """Settings for processes sharing one throwaway, migrated PostgreSQL database."""
    name = f"agora_prod_{uuid.uuid4().hex[:12]}"
    try:
        asyncio.run(_admin_execute(f'CREATE DATABASE "{name}"'))
    except Exception as exc:
        unavailable("PostgreSQL", f"{POSTGRES_ADMIN_URL}: {type(exc).__name__}: {exc}")
    env = agora_env(
        tmp_path,
        AGORA_DATABASE_URL=_postgres_url(name),
        AGORA_DEMO="false",
        AGORA_RUN_DISPATCHER="false",
        AGORA_STATUS_POLL_INITIAL_SECONDS="0.02",
        AGORA_STATUS_POLL_MAX_SECONDS="0.2",
    )
    run_cli(env, "migrate")
    try:
        yield env
    finally:
        asyncio.run(_admin_execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


@contextmanager
def workers(
    env: dict[str, str], count: int, concurrency: int = 8
) -> Iterator[list[subprocess.Popen[str]]]:
    """``count`` `agora worker` processes, started and listening; stopped (always)."""
    processes: list[subprocess.Popen[str]] = []
    try:
        for _ in range(count):
            process = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "agora.cli.main",
                    "worker",
                    "--concurrency",
                    str(concurrency),
                ],
                env=env,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                text=True,
            )
            processes.append(process)
            assert process.stdout is not None
            assert "running" in process.stdout.readline()
        yield processes
    finally:
        for process in processes:
            if process.poll() is None:
                process.terminate()
        for process in processes:
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=5)


def wait_until(predicate, what: str, seconds: float) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + seconds
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: not within {seconds} s")
        time.sleep(0.1)
