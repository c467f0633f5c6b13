"""The agents' background service: periodic availability checks. A round expires lapsed
verifications and checks the verified agents least recently checked (agents/availability.py has
the rules); each agent is asked with no transaction open, and its outcome written in its own
short transaction."""

from __future__ import annotations

import structlog

from agora.a2a.client import A2aClient
from agora.a2a.client import client_for as a2a_client_for
from agora.agents import availability
from agora.kit.background import LoopService
from agora.kit.db import Database
from agora.mip003.client import Mip003Client
from agora.models.statuses import AgentProtocol
from agora.settings import Settings

log = structlog.get_logger(__name__)

DEMO_FIRST_ROUND_SECONDS = 5.0


async def check_availability(
    db: Database, client: Mip003Client, settings: Settings, *, batch: int = 100
) -> dict[str, int]:
    """One round: expire lapsed verifications, then check up to ``batch`` verified agents.
    Returns how many were checked, failed and expired."""
    counts = {"checked": 0, "failed": 0, "expired": 0}
    async with db.transaction() as session:
        counts["expired"] += await availability.expire_lapsed(session)
        due = await availability.due(session, batch)
    a2a = None
    if any(agent.protocol == AgentProtocol.A2A for agent in due):
        a2a = a2a_client_for(settings.dispatch.agent_timeout_seconds, settings.outbound_allow)
    try:
        return await _check(db, settings, client, a2a, due, counts)
    finally:
        if a2a is not None:
            await a2a.aclose()


async def _check(
    db: Database,
    settings: Settings,
    client: Mip003Client,
    a2a: A2aClient | None,
    due: list[availability.Due],
    counts: dict[str, int],
) -> dict[str, int]:
    for agent in due:
        answer = await availability.ask(client, agent, a2a)  # no transaction open
        async with db.transaction() as session:
            outcome = await availability.record(session, settings, agent.agent_id, answer)
        if outcome is None:
            continue
        counts["checked"] += 1
        if outcome is not availability.Outcome.AVAILABLE:
            counts["failed"] += 1
        if outcome is availability.Outcome.EXPIRED:
            counts["expired"] += 1
    return counts


class AvailabilityChecker(LoopService):
    def __init__(self, db: Database, client: Mip003Client, settings: Settings) -> None:
        self.db, self.client, self.settings = db, client, settings
        every = float(settings.catalogue.availability_check_seconds)
        # With the demo, the first round comes soon after start, so the gallery's availability
        # badges show the demo agents' state at once instead of "not checked yet" for minutes.
        first = min(every, DEMO_FIRST_ROUND_SECONDS) if settings.demo else every
        super().__init__(
            "agent-availability-checker", interval=every, initial_delay=first, error_delay=every
        )

    async def round(self) -> None:
        counts = await check_availability(self.db, self.client, self.settings)
        log.info("agent_availability_checked", **counts)
