"""The periodic availability checks' rules (the checker's rounds are agents/worker.py): expire
lapsed verifications, pick the verified agents least recently checked, ask each one (with no
transaction open), record what it said. ``availability_failures_to_expire`` consecutive failed
checks expire a verification; a revoked agent is never touched by a check."""

from __future__ import annotations

import enum
import uuid
from dataclasses import dataclass

import structlog
from sqlalchemy.ext.asyncio import AsyncSession

from agora.a2a.client import A2aClient, A2aError
from agora.agents import repository as repo
from agora.kit.timeutil import utcnow
from agora.mip003.client import Mip003Client
from agora.mip003.errors import AgentError
from agora.models.statuses import AgentCheckKind, AgentProtocol, AgentStatus
from agora.settings import Settings

log = structlog.get_logger(__name__)


@dataclass(frozen=True)
class Due:
    """A verified agent due for its check."""

    agent_id: uuid.UUID
    base_url: str
    protocol: str = AgentProtocol.MIP003


class Outcome(enum.Enum):
    """What a recorded check did to the agent."""

    AVAILABLE = "available"
    FAILED = "failed"  # unavailable or unreachable, still verified
    EXPIRED = "expired"  # failed once too often: its verification expired


@dataclass(frozen=True)
class Answer:
    available: bool
    message: str | None


async def expire_lapsed(session: AsyncSession) -> int:
    """Expire the verifications past their lifetime; how many."""
    return await repo.expire_lapsed(session, utcnow())


async def due(session: AsyncSession, batch: int) -> list[Due]:
    """Up to ``batch`` verified agents, least recently checked first."""
    return [Due(a.id, a.base_url, a.protocol) for a in await repo.due_for_check(session, batch)]


async def ask(client: Mip003Client, agent: Due, a2a: A2aClient | None = None) -> Answer:
    """The agent's /availability (call it with no transaction open); a failure is an answer.
    An A2A agent: its Agent Card read and usable (docs/a2a.md)."""
    if agent.protocol == AgentProtocol.A2A and a2a is not None:
        try:
            await a2a.read_card(agent.base_url)
        except A2aError as exc:
            log.info("agent_check_failed", agent_id=str(agent.agent_id), error=exc.message)
            return Answer(False, exc.message)
        return Answer(True, None)
    try:
        answer = await client.availability(agent.base_url)
    except AgentError as exc:
        log.info("agent_check_failed", agent_id=str(agent.agent_id), error=exc.message)
        return Answer(False, exc.message)
    return Answer(answer.available, answer.message)


async def record(
    session: AsyncSession, settings: Settings, agent_id: uuid.UUID, answer: Answer
) -> Outcome | None:
    """Record a periodic check of a still verified agent, or nothing (None) when it is no longer
    verified (a revocation or an expiry came first)."""
    agent = await repo.get_for_update(session, agent_id)
    if agent is None or agent.status != AgentStatus.VERIFIED:
        return None
    await repo.record_check(
        session, agent_id, AgentCheckKind.PERIODIC, answer.available, answer.message
    )
    agent.last_checked_at = utcnow()
    if answer.available:
        agent.consecutive_failures = 0
        return Outcome.AVAILABLE
    agent.consecutive_failures += 1
    if agent.consecutive_failures >= settings.catalogue.availability_failures_to_expire:
        agent.status = AgentStatus.EXPIRED
        return Outcome.EXPIRED
    return Outcome.FAILED
