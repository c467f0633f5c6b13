"""The ledger CSV export in bounded memory: 100 000 ledger entries of one workspace streamed by
``kit.csvexport.stream`` (what ``GET /v1/credits/ledger/export`` sends), the Python heap's peak
measured with tracemalloc, against the same rows read at once and written as one CSV (what an
unstreamed export would hold). On SQLite (a temporary file) and a throwaway PostgreSQL database.

    .venv/bin/python -m bench.exports [--rows 100000] [--backend all|sqlite|postgres]

Figures: docs/billing.md, "Exports".
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
import tracemalloc
import uuid
from datetime import timedelta
from pathlib import Path

from sqlalchemy import insert

from agora.accounts import provisioning as identity
from agora.auth.principal import Principal
from agora.credits import service as credits
from agora.kit import csvexport
from agora.kit.db import Database
from agora.kit.migrate import upgrade
from agora.kit.timeutil import utcnow
from agora.models import LedgerEntry
from bench.common import throwaway_postgres

BATCH = 5000
MEMOS = ("=cmd|' /C calc'!A0", "+1", "-1", "@SUM(A1)", "grant for a long-running project")


async def seed(db: Database, rows: int) -> Principal:
    async with db.transaction() as session:
        created = await identity.create_user(session, email="bench@example.com", name="Bench")
        principal = Principal(
            user_id=created.user.id,
            key_id=created.key.id,
            key_kind="user",
            workspace_id=created.workspace.id,
            organization_id=None,
        )
    start = utcnow() - timedelta(days=30)
    for first in range(0, rows, BATCH):
        batch = [
            {
                "id": uuid.uuid4(),
                "workspace_id": principal.workspace_id,
                "user_id": principal.user_id,
                "kind": "grant",
                "amount": 1000 + i,
                "held_change": 0,
                "balance_after": 1000 * i,
                "memo": MEMOS[i % len(MEMOS)],
                "created_at": start + timedelta(seconds=i),
            }
            for i in range(first, min(rows, first + BATCH))
        ]
        async with db.transaction() as session:
            await session.execute(insert(LedgerEntry), batch)
    return principal


async def streamed(db: Database, principal: Principal) -> tuple[int, int, float, int]:
    """(bytes, lines, seconds, peak heap bytes) of the streamed export."""
    export = credits.ledger_export(principal)
    size = lines = 0
    tracemalloc.start()
    started = time.perf_counter()
    async for chunk in csvexport.stream(db, export):
        size += len(chunk)
        lines += chunk.count(b"\n")
    seconds = time.perf_counter() - started
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return size, lines, seconds, peak


async def at_once(db: Database, principal: Principal) -> tuple[int, int]:
    """(bytes, peak heap bytes) of every row read at once and written as one CSV."""
    export = credits.ledger_export(principal)
    tracemalloc.start()
    async with db.transaction(write=False) as session:
        rows = await export.page(session, None, 10**9)
    body = csvexport.csv_text([export.header, *(export.cells(r) for r in rows)]).encode()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return len(body), peak


async def measure(name: str, url: str, rows: int) -> None:
    db = Database(url)
    try:
        await upgrade(db.engine)
        started = time.perf_counter()
        principal = await seed(db, rows)
        seeded = time.perf_counter() - started
        size, lines, seconds, peak = await streamed(db, principal)
        whole, whole_peak = await at_once(db, principal)
        mib = 1024 * 1024
        print(
            f"{name}: {rows} entries seeded in {seeded:.1f} s; streamed {lines - 1} rows, "
            f"{size / mib:.1f} MiB in {seconds:.2f} s ({(lines - 1) / seconds:,.0f} rows/s); "
            f"heap peak {peak / mib:.2f} MiB streamed vs {whole_peak / mib:.1f} MiB at once "
            f"({whole / mib:.1f} MiB CSV)"
        )
    finally:
        await db.dispose()


async def run(rows: int, backend: str) -> None:
    if backend in ("all", "sqlite"):
        with tempfile.TemporaryDirectory() as tmp:
            await measure("SQLite", f"sqlite+aiosqlite:///{Path(tmp) / 'bench.db'}", rows)
    if backend in ("all", "postgres"):
        async with throwaway_postgres("agora_bench_exports") as url:
            await measure("PostgreSQL", url, rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--backend", choices=("all", "sqlite", "postgres"), default="all")
    args = parser.parse_args()
    asyncio.run(run(args.rows, args.backend))


if __name__ == "__main__":
    main()
