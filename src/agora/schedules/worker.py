"""The scheduler: a ``LoopService`` in every dispatching process (``agora serve`` with
the embedded dispatcher, ``agora worker``). Each round

1. settles the outcomes of runs whose jobs ended (failures in a row pause a schedule);
2. claims due schedules with a lease (as the dispatcher claims jobs), commits;
3. for each claimed schedule, in its own short transaction: records and runs its due
   occurrences (``runs.run_schedule``) and gives the lease back.

No outbound call is made here: a run only creates a job (the dispatcher calls the agent), and
the owner's mail goes out after the commit. The clock is injected (``clock``) so tests move time.
Any number of schedulers may run against one database: the lease spreads schedules across them
and the unique ``(schedule_id, occurrence_at)`` key makes each occurrence at most one job.
"""

from __future__ import annotations

import os
import socket
import uuid
from collections.abc import Callable
from datetime import datetime, timedelta

import structlog

from agora.kit.background import LoopService
from agora.kit.db import Database
from agora.kit.timeutil import as_utc, utcnow
from agora.schedules import repository as repo
from agora.schedules import runs, service
from agora.settings import Settings

log = structlog.get_logger(__name__)

IDLE_POLL_SECONDS = 30.0  # schedules are due at whole minutes at the finest
LEASE_SECONDS = 60.0
BATCH = 20
TOPIC = service.TOPIC

Clock = Callable[[], datetime]


class Scheduler(LoopService):
    def __init__(
        self,
        db: Database,
        settings: Settings,
        *,
        owner: str | None = None,
        clock: Clock = utcnow,
        lease_seconds: float = LEASE_SECONDS,
    ) -> None:
        self.db, self.settings, self.clock = db, settings, clock
        self.owner = owner or f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        self.lease = timedelta(seconds=lease_seconds)
        super().__init__(
            f"scheduler-{self.owner}",
            interval=IDLE_POLL_SECONDS,
            topics=(TOPIC,),
            max_delay=IDLE_POLL_SECONDS,
        )

    async def round(self) -> float:
        """One round; returns the seconds until the next (0: more may be due at once)."""
        if await self.run_once() >= BATCH:
            return 0.0
        async with self.db.transaction(write=False) as session:
            due = await repo.next_due(session)
        if due is None:
            return IDLE_POLL_SECONDS
        return max(0.0, min(IDLE_POLL_SECONDS, (as_utc(due) - self.clock()).total_seconds()))

    async def claim(self, limit: int = BATCH) -> list[uuid.UUID]:
        now = self.clock()
        async with self.db.transaction(write=False) as session:  # the common case: nothing due
            if not await repo.any_claimable(session, now):
                return []
        async with self.db.transaction() as session:
            return await repo.claim(
                session, owner=self.owner, now=now, lease_until=now + self.lease, limit=limit
            )

    async def settle(self) -> int:
        async with self.db.transaction(write=False) as session:  # the common case: none ended
            if not await runs.outcomes_waiting(session):
                return 0
        async with self.db.transaction() as session:
            return await runs.settle_outcomes(session, now=self.clock(), settings=self.settings)

    async def run_claimed(self, schedule_id: uuid.UUID) -> int:
        """Run one claimed schedule's due occurrences (nothing if the lease was lost)."""
        now = self.clock()
        async with self.db.transaction() as session:
            schedule = await repo.leased(session, schedule_id, self.owner, now)
            if schedule is None:
                return 0
            return await runs.run_schedule(session, schedule, now=now, settings=self.settings)

    async def run_once(self) -> int:
        """Settle outcomes, claim what is due and run it; returns the schedules claimed."""
        await self.settle()
        claimed = await self.claim()
        for schedule_id in claimed:
            try:
                await self.run_claimed(schedule_id)
            except Exception:  # one broken schedule must not stop the others; its lease expires
                log.exception("schedule_round_failed", schedule_id=str(schedule_id))
        return len(claimed)
