"""All SQL for developer listings, their review and their stats."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import ColumnElement, and_, case, delete, func, insert, select
from sqlalchemy.ext.asyncio import AsyncSession

from agora.models import Agent, AgentCheck, Job, agent_categories
from agora.models.statuses import JobStatus

MAX_DURATION_SAMPLE = 1000


async def owned(
    session: AsyncSession,
    agent_id: uuid.UUID,
    owner: ColumnElement[bool],
    *,
    for_update: bool = False,
) -> Agent | None:
    query = select(Agent).where(Agent.id == agent_id, owner)
    if for_update:
        query = query.with_for_update()
    return await session.scalar(query)


def status_condition(status: str) -> ColumnElement[bool]:
    return Agent.status == status


def not_withdrawn() -> ColumnElement[bool]:
    return Agent.withdrawn_at.is_(None)


def review_condition(state: str) -> ColumnElement[bool]:
    return Agent.review_state == state


async def recent_checks(session: AsyncSession, agent_id: uuid.UUID, limit: int) -> list[AgentCheck]:
    result = await session.scalars(
        select(AgentCheck)
        .where(AgentCheck.agent_id == agent_id)
        .order_by(AgentCheck.checked_at.desc(), AgentCheck.id.desc())
        .limit(limit)
    )
    return list(result)


async def job_counts(session: AsyncSession, agent_id: uuid.UUID) -> dict[str, int]:
    rows = await session.execute(
        select(Job.status, func.count()).where(Job.agent_id == agent_id).group_by(Job.status)
    )
    return {status: int(n) for status, n in rows.all()}


async def credits_earned(session: AsyncSession, agent_id: uuid.UUID) -> int:
    """What completed, settled jobs paid the agent: price minus fee, net of partial refunds."""
    earned = (Job.price - Job.fee) - (Job.refund - Job.refund_fee)
    total = await session.scalar(
        select(func.coalesce(func.sum(case((earned > 0, earned), else_=0)), 0)).where(
            Job.agent_id == agent_id, Job.status == JobStatus.COMPLETED, Job.settled.is_(True)
        )
    )
    return int(total or 0)


async def completed_times(
    session: AsyncSession, agent_id: uuid.UUID
) -> list[tuple[datetime, datetime | None, datetime]]:
    """(created, started, completed) of the most recent completed jobs (bounded sample)."""
    rows = await session.execute(
        select(Job.created_at, Job.started_at, Job.completed_at)
        .where(
            Job.agent_id == agent_id,
            Job.status == JobStatus.COMPLETED,
            Job.completed_at.is_not(None),
        )
        .order_by(Job.completed_at.desc())
        .limit(MAX_DURATION_SAMPLE)
    )
    return [(c, s, d) for c, s, d in rows.all() if d is not None]


async def last_errors(session: AsyncSession, agent_id: uuid.UUID, limit: int) -> list[Any]:
    rows = await session.execute(
        select(Job.id, Job.updated_at, Job.agent_job_status, Job.error)
        .where(and_(Job.agent_id == agent_id, Job.error.is_not(None)))
        .order_by(Job.updated_at.desc(), Job.id.desc())
        .limit(limit)
    )
    return list(rows.all())


async def replace_categories(
    session: AsyncSession, agent_id: uuid.UUID, category_ids: Sequence[uuid.UUID]
) -> None:
    await session.execute(delete(agent_categories).where(agent_categories.c.agent_id == agent_id))
    if category_ids:
        await session.execute(
            insert(agent_categories),
            [{"agent_id": agent_id, "category_id": cid} for cid in category_ids],
        )


async def jobs_since(
    session: AsyncSession, agent_id: uuid.UUID, since: datetime, limit: int
) -> list[Any]:
    """(created, status, started, completed, earned) of the agent's jobs created since ``since``,
    newest first (bounded): the developer's daily figures. ``earned`` is what a completed,
    settled job paid the agent (as ``credits_earned``), else 0."""
    earned = (Job.price - Job.fee) - (Job.refund - Job.refund_fee)
    paid = case(
        (and_(Job.status == JobStatus.COMPLETED, Job.settled.is_(True), earned > 0), earned),
        else_=0,
    )
    rows = await session.execute(
        select(Job.created_at, Job.status, Job.started_at, Job.completed_at, paid)
        .where(Job.agent_id == agent_id, Job.created_at >= since)
        .order_by(Job.created_at.desc())
        .limit(limit)
    )
    return list(rows.all())
