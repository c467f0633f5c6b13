"""Production proof: real `agora` processes on one PostgreSQL (+ Redis), loopback only.

Run them alone with ``make prove``; they are part of ``make test`` too (PostgreSQL only).
``postgres_env`` connects the processes to PostgreSQL directly; parametrized indirectly with
``VIA`` (``"direct"``, ``"pgbouncer"``) a test runs twice, the second time through PgBouncer in
transaction mode (``AGORA_DATABASE_PGBOUNCER=true``, LISTEN on the direct
``AGORA_DATABASE_LISTEN_URL``; docs/operations.md, "Running at scale").
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
from tests.support.pgbouncer import PGBOUNCER, pgbouncer, through
from tests.support.pgbouncer import available as pgbouncer_available
from tests.support.server import agora_env, run_cli

VIA = ("direct", "pgbouncer")  # pytest.mark.parametrize("postgres_env", VIA, indirect=True)


@pytest.fixture(scope="session")
def pgbouncer_port() -> Iterator[int]:
    """One PgBouncer (transaction mode) per test process, in front of the test PostgreSQL."""
    if not pgbouncer_available():
        unavailable("PgBouncer", f"{PGBOUNCER} (apt-get install pgbouncer)")
    with pgbouncer(POSTGRES_ADMIN_URL) as port:
        yield port


def direct_url(env: dict[str, str]) -> str:
    """The database's own URL (not PgBouncer's): for the tests' own inspection."""
    return env.get("AGORA_DATABASE_LISTEN_URL") or env["AGORA_DATABASE_URL"]


@pytest.fixture
def postgres_env(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[dict[str, str]]:
    """Settings for processes sharing one throwaway, migrated PostgreSQL database (through
    PgBouncer when the test is parametrized with ``"pgbouncer"``)."""
    via = getattr(request, "param", "direct")
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
    if via == "pgbouncer":
        port = request.getfixturevalue("pgbouncer_port")
        env.update(
            AGORA_DATABASE_URL=through(_postgres_url(name), port),
            AGORA_DATABASE_PGBOUNCER="true",
            AGORA_DATABASE_LISTEN_URL=_postgres_url(name),
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
