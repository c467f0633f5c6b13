"""What every benchmark shares: percentiles, throwaway PostgreSQL databases and a server's
environment."""

from __future__ import annotations

import os
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from sqlalchemy import text
from tests.support.server import agora_env

from agora.kit.db import Database

PG_ADMIN = os.environ.get(
    "AGORA_BENCH_POSTGRES_URL", "postgresql+asyncpg://postgres@127.0.0.1:5432/postgres"
)


def server_env(data_dir: Path, **extra: str) -> dict[str, str]:
    """The tests' server environment measured as production runs: without the tests' check of
    every written list against its schema (``AGORA_WIRE_CHECK``, which builds each list twice)."""
    return agora_env(data_dir, **{"AGORA_WIRE_CHECK": "false", **extra})


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[index]


async def admin_execute(statement: str) -> None:
    admin = Database(PG_ADMIN)
    try:
        async with admin.engine.connect() as conn:
            conn = await conn.execution_options(isolation_level="AUTOCOMMIT")
            await conn.execute(text(statement))
    finally:
        await admin.dispose()


@asynccontextmanager
async def throwaway_postgres(prefix: str) -> AsyncIterator[str]:
    """The URL of a fresh PostgreSQL database, dropped afterwards (always)."""
    name = f"{prefix}_{uuid.uuid4().hex[:10]}"
    await admin_execute(f'CREATE DATABASE "{name}"')
    try:
        yield f"{PG_ADMIN.rpartition('/')[0]}/{name}"
    finally:
        await admin_execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
