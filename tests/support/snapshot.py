"""The whole database as data, to prove that a refused request changed nothing: every table's
rows (sorted), less the bookkeeping columns a successful read may touch after the response."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from agora.kit.db import Database
from agora.models import Base

# Written by after-commit touches (at most once a minute), never by the request's own work.
BOOKKEEPING = frozenset({"last_used_at", "last_seen_at"})


async def snapshot(db: Database) -> dict[str, list[tuple[Any, ...]]]:
    tables: dict[str, list[tuple[Any, ...]]] = {}
    async with db.transaction(write=False) as session:
        for table in Base.metadata.sorted_tables:
            columns = [c for c in table.columns if c.name not in BOOKKEEPING]
            rows = (await session.execute(select(*columns))).all()
            tables[table.name] = sorted((tuple(row) for row in rows), key=repr)
    return tables


def changed_tables(
    before: dict[str, list[tuple[Any, ...]]], after: dict[str, list[tuple[Any, ...]]]
) -> list[str]:
    return [name for name in before if before[name] != after[name]]
