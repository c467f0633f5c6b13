"""Housekeeping: what has expired is deleted, so no table grows forever (docs/operations.md,
"Housekeeping"). A ``kit.background.Loop`` in every dispatching process, every
``AGORA_HOUSEKEEPING_SECONDS``:

- browser sessions, one-time links (account tokens), OAuth tokens and device codes that expired
  (or, for sessions, were revoked) more than ``AGORA_EXPIRED_ROWS_KEEP_DAYS`` ago — until then
  they stay for the sessions page and for a late, refused use;
- the popularity sort's per-day counters older than its window;
- audit rows older than ``AGORA_AUDIT_RETENTION_DAYS`` (0 keeps them; ``agora audit prune`` does
  the same on demand).

Each sweep deletes in batches of ``BATCH`` rows, each batch its own short transaction, at most
``MAX_BATCHES`` per sweep and round. Every delete is idempotent, so processes running it at the
same time only repeat each other's work."""

from __future__ import annotations

import itertools
from collections.abc import Awaitable
from dataclasses import dataclass, field
from datetime import timedelta
from functools import partial
from typing import Protocol

import structlog
from sqlalchemy.ext.asyncio import AsyncSession

from agora.agents.service import popular_since
from agora.audit import service as audit
from agora.kit.background import LoopService
from agora.kit.db import Database
from agora.kit.timeutil import utcnow
from agora.ops import repository as repo
from agora.settings import Settings

log = structlog.get_logger(__name__)

BATCH = 1000
MAX_BATCHES = 50


class Sweep(Protocol):
    """Deletes at most ``limit`` rows in ``session``; how many."""

    def __call__(self, session: AsyncSession, *, limit: int) -> Awaitable[int]: ...


@dataclass
class Swept:
    """Rows deleted in one round, per sweep."""

    counts: dict[str, int] = field(default_factory=dict)

    @property
    def total(self) -> int:
        return sum(self.counts.values())


class Housekeeping(LoopService):
    def __init__(self, db: Database, settings: Settings) -> None:
        self.db, self.settings = db, settings
        every = float(settings.accounts.housekeeping_seconds)
        super().__init__(
            "housekeeping", interval=every, error_delay=60.0, max_delay=max(every, 1.0)
        )

    async def round(self) -> None:
        swept = await self.run_once()
        if swept.total:
            log.info("housekeeping", **swept.counts)

    async def run_once(self) -> Swept:
        now = utcnow()
        swept = Swept()
        expired_before = now - timedelta(days=self.settings.accounts.expired_rows_keep_days)
        for name in repo.SWEEPS:
            swept.counts[name] = await self._batched(
                partial(repo.sweep, name=name, before=expired_before)
            )
        swept.counts["audit_events"] = await self._batched(
            partial(audit.prune, retention_days=self.settings.accounts.audit_retention_days)
        )
        async with self.db.transaction() as session:
            swept.counts["agent_daily_completions"] = await repo.sweep_daily_completions(
                session, popular_since(now)
            )
        return swept

    async def _batched(self, sweep: Sweep) -> int:
        return await delete_in_batches(self.db, sweep, batch=BATCH, max_batches=MAX_BATCHES)


async def delete_in_batches(
    db: Database, sweep: Sweep, *, batch: int, max_batches: int | None
) -> int:
    """``sweep(session, limit=batch)`` (deletes at most ``batch`` rows) again until it deletes
    fewer, each time in its own transaction, at most ``max_batches`` times (None: until done);
    how many rows in all."""
    deleted = 0
    for _ in range(max_batches) if max_batches is not None else itertools.count():
        async with db.transaction() as session:
            count = await sweep(session, limit=batch)
        deleted += count
        if count < batch:
            break
    return deleted
