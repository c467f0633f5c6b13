"""The developer domain's background service: the certification round. It runs the conformance
suite over the listed agents whose latest run is older than the interval, a bounded batch at a
time, each with no transaction open, and records each result in its own short transaction
(developer/certification.py has the rules)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta

import structlog

from agora.developer import certification
from agora.developer import certification_repository as repo
from agora.kit.background import LoopService
from agora.kit.db import Database
from agora.kit.timeutil import utcnow
from agora.mip003.client import Mip003Client
from agora.models.statuses import AgentCheckKind
from agora.settings import Settings

log = structlog.get_logger(__name__)


async def certify_due(
    db: Database,
    client: Mip003Client,
    settings: Settings,
    *,
    clock: Callable[[], datetime] = utcnow,
) -> dict[str, int]:
    """One round: up to ``certification_batch`` listed agents due for a run (none run within
    ``certification_seconds``), the longest waiting first. Returns how many ran and passed."""
    every = timedelta(seconds=settings.catalogue.certification_seconds)
    async with db.transaction() as session:
        due = await repo.due(session, clock() - every, settings.catalogue.certification_batch)
    counts = {"ran": 0, "passed": 0}
    for agent_id, base_url, identifier in due:
        paid = certification.is_paid(identifier)
        results = await certification.run(client, settings, base_url, paid=paid)  # nothing held
        async with db.transaction() as session:
            run = await certification.record(
                session, settings, agent_id, AgentCheckKind.PERIODIC, results, now=clock()
            )
        counts["ran"] += 1
        counts["passed"] += run.passed
    return counts


class CertificationRound(LoopService):
    def __init__(
        self,
        db: Database,
        client: Mip003Client,
        settings: Settings,
        *,
        clock: Callable[[], datetime] = utcnow,
    ) -> None:
        self.db, self.client, self.settings, self.clock = db, client, settings, clock
        # Wake hourly at most: an agent is due once its latest run is older than the interval.
        wait = min(float(settings.catalogue.certification_seconds), 3600.0)
        super().__init__("agent-certification", interval=wait, initial_delay=wait, error_delay=wait)

    async def round(self) -> None:
        counts = await certify_due(self.db, self.client, self.settings, clock=self.clock)
        log.info("agent_certification_round", **counts)
