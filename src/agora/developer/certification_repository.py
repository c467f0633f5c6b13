"""The SQL of certified listings: conformance runs, the listed agents due for one, operators."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from agora.models import Agent, ConformanceRun
from agora.models.statuses import AgentProtocol, AgentStatus


async def latest(session: AsyncSession, agent_id: uuid.UUID) -> ConformanceRun | None:
    return await session.scalar(
        select(ConformanceRun)
        .where(ConformanceRun.agent_id == agent_id)
        .order_by(ConformanceRun.ran_at.desc(), ConformanceRun.id.desc())
        .limit(1)
    )


async def first_failure_since(
    session: AsyncSession, agent_id: uuid.UUID, since: datetime
) -> datetime | None:
    """When the agent's current run of failures began: its first failed run after ``since``."""
    found: datetime | None = await session.scalar(
        select(func.min(ConformanceRun.ran_at)).where(
            ConformanceRun.agent_id == agent_id,
            ConformanceRun.passed.is_(False),
            ConformanceRun.ran_at > since,
        )
    )
    return found


def add(session: AsyncSession, run: ConformanceRun) -> None:
    session.add(run)


async def due(
    session: AsyncSession, ran_before: datetime, limit: int
) -> Sequence[tuple[uuid.UUID, str, str | None]]:
    """Listed agents (verified, shown) whose latest run is older than ``ran_before`` or missing,
    the longest waiting first: (id, base URL, agent identifier)."""
    last_run = (
        select(func.max(ConformanceRun.ran_at))
        .where(ConformanceRun.agent_id == Agent.id)
        .correlate(Agent)
        .scalar_subquery()
    )
    rows = await session.execute(
        select(Agent.id, Agent.base_url, Agent.agent_identifier)
        .where(
            Agent.status == AgentStatus.VERIFIED,
            Agent.is_shown.is_(True),
            Agent.protocol == AgentProtocol.MIP003,  # the MIP-003 suite; A2A: docs/a2a.md
            (last_run.is_(None)) | (last_run < ran_before),
        )
        .order_by(last_run.asc().nulls_first(), Agent.id)
        .limit(limit)
    )
    return [(row[0], row[1], row[2]) for row in rows]
