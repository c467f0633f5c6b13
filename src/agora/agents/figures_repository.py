"""All SQL for the figures of an agent's jobs, every workspace's: durations, outcomes, recent
completions (the agent page, the comparison)."""

from __future__ import annotations

import uuid
from datetime import date
from typing import Any

from sqlalchemy import Float, FunctionElement, Select, func, select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.ext.compiler import compiles
from sqlalchemy.sql.compiler import SQLCompiler

from agora.agents.repository import completed_recently
from agora.models import Agent, Job
from agora.models.statuses import JobStatus

# The average duration reads the agent's most recent completed jobs only (a bounded sample,
# as the developer statistics): the agent page's cost does not grow with the agent's history.
DURATION_SAMPLE = 1000


class seconds_between(FunctionElement[float]):
    """``end - start`` in seconds, on both databases (timestamps are UTC)."""

    type = Float()
    name = "seconds_between"
    inherit_cache = True


@compiles(seconds_between, "postgresql")
def _seconds_postgres(element: seconds_between, compiler: SQLCompiler, **kw: Any) -> str:
    start, end = (compiler.process(c, **kw) for c in element.clauses)
    return f"EXTRACT(EPOCH FROM ({end} - {start}))"


@compiles(seconds_between, "sqlite")
def _seconds_sqlite(element: seconds_between, compiler: SQLCompiler, **kw: Any) -> str:
    start, end = (compiler.process(c, **kw) for c in element.clauses)
    return f"((julianday({end}) - julianday({start})) * 86400.0)"


def _duration_sample(agent_id: uuid.UUID) -> Select[float]:
    """The durations in seconds of the agent's most recent ``DURATION_SAMPLE`` COMPLETED jobs,
    every workspace's. A job's duration runs from its start (the agent accepted it; its creation
    if it never ran) to its completion."""
    start = func.coalesce(Job.started_at, Job.created_at)
    return (
        select(seconds_between(start, Job.completed_at).label("seconds"))
        .where(
            Job.agent_id == agent_id,
            Job.status == JobStatus.COMPLETED,
            Job.completed_at.is_not(None),
        )
        .order_by(Job.created_at.desc())
        .limit(DURATION_SAMPLE)
    )


async def completed_duration(
    session: AsyncSession, agent_id: uuid.UUID
) -> tuple[int, float | None]:
    """(how many of the sample's jobs, their mean duration in seconds or None)."""
    sample = _duration_sample(agent_id).subquery()
    row = (await session.execute(select(func.count(), func.avg(sample.c.seconds)))).one()
    count, average = int(row[0] or 0), row[1]
    return count, max(0.0, float(average)) if average is not None else None


async def outcome_counts(session: AsyncSession, agent_id: uuid.UUID) -> tuple[int, int]:
    """(completed, failed) jobs of the agent, every workspace's."""
    rows = await session.execute(
        select(Job.status, func.count())
        .where(Job.agent_id == agent_id, Job.status.in_([JobStatus.COMPLETED, JobStatus.FAILED]))
        .group_by(Job.status)
    )
    counts = {status: int(n) for status, n in rows.all()}
    return counts.get(JobStatus.COMPLETED, 0), counts.get(JobStatus.FAILED, 0)


async def completed_durations(session: AsyncSession, agent_id: uuid.UUID) -> list[float]:
    """The durations of the agent's sample of completed jobs (``_duration_sample``)."""
    rows = await session.scalars(_duration_sample(agent_id))
    return [max(0.0, float(s)) for s in rows if s is not None]


async def completed_since(session: AsyncSession, agent_id: uuid.UUID, since: date) -> int:
    """The agent's jobs COMPLETED on a UTC day since ``since`` (the popularity sort's count)."""
    found = await session.scalar(
        select(completed_recently(since)).select_from(Agent).where(Agent.id == agent_id)
    )
    return int(found or 0)
