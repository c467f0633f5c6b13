"""The "Conformant" badge of listings (docs/agents.md, "Conformant badge"): read from each
agent's latest conformance run (``conformance_runs``, written by developer/certification.py)."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import ColumnElement, select
from sqlalchemy.ext.asyncio import AsyncSession

from agora.models import Agent, ConformanceRun


def _latest(column: Any) -> Any:
    """``column`` of the agent's latest run (one index seek on ``ix_conformance_runs_agent``)."""
    return (
        select(column)
        .where(ConformanceRun.agent_id == Agent.id)
        .order_by(ConformanceRun.ran_at.desc(), ConformanceRun.id.desc())
        .limit(1)
        .correlate(Agent)
        .scalar_subquery()
    )


def conformant() -> ColumnElement[bool]:
    """The listing holds the badge: its latest run left it certified."""
    held: ColumnElement[bool] = _latest(ConformanceRun.certified_on).is_not(None)
    return held


async def badges(
    session: AsyncSession, agent_ids: Sequence[uuid.UUID]
) -> dict[uuid.UUID, tuple[datetime, str]]:
    """(certified on, suite version) of each agent holding the badge; the others are absent."""
    if not agent_ids:
        return {}
    rows = await session.execute(
        select(
            Agent.id, _latest(ConformanceRun.certified_on), _latest(ConformanceRun.suite_version)
        ).where(Agent.id.in_(set(agent_ids)))
    )
    return {agent_id: (on, version) for agent_id, on, version in rows if on is not None}
