"""All SQL of the job API (the dispatcher's queue SQL lives in dispatch/repository.py)."""

from __future__ import annotations

import uuid
from collections.abc import Sequence

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from agora.models import Agent, Job, JobEvent, Organization, Task, User


async def add(session: AsyncSession, job: Job) -> Job:
    session.add(job)
    await session.flush()
    return job


async def by_idempotency_key(session: AsyncSession, user_id: uuid.UUID, key: str) -> Job | None:
    return await session.scalar(
        select(Job).where(Job.user_id == user_id, Job.idempotency_key == key)
    )


async def visible(
    session: AsyncSession, job_id: uuid.UUID, user_id: uuid.UUID, workspace_id: uuid.UUID
) -> Job | None:
    """The caller's own job in the current workspace (anything else is invisible)."""
    return await session.scalar(
        select(Job).where(
            Job.id == job_id, Job.user_id == user_id, Job.workspace_id == workspace_id
        )
    )


async def refresh(session: AsyncSession, job: Job) -> Job:
    await session.refresh(job)
    return job


async def list_visible(
    session: AsyncSession,
    *,
    user_id: uuid.UUID,
    workspace_id: uuid.UUID,
    agent_id: uuid.UUID | None,
    statuses: Sequence[str],
    before_id: uuid.UUID | None,
    limit: int,
) -> list[Job]:
    """Newest first (ids are time-ordered UUIDv7), keyset-paged by id."""
    query = select(Job).where(Job.user_id == user_id, Job.workspace_id == workspace_id)
    if agent_id is not None:
        query = query.where(Job.agent_id == agent_id)
    if statuses:
        query = query.where(Job.status.in_(statuses))
    if before_id is not None:
        query = query.where(Job.id < before_id)
    return list(await session.scalars(query.order_by(Job.id.desc()).limit(limit)))


async def events(session: AsyncSession, job_id: uuid.UUID, limit: int) -> list[JobEvent]:
    result = await session.scalars(
        select(JobEvent)
        .where(JobEvent.job_id == job_id)
        .order_by(JobEvent.created_at, JobEvent.id)
        .limit(limit)
    )
    return list(result)


async def by_share_token(session: AsyncSession, token: str) -> Job | None:
    return await session.scalar(select(Job).where(Job.share_token == token))


async def task_in_workspace(
    session: AsyncSession, task_id: uuid.UUID, workspace_id: uuid.UUID
) -> Task | None:
    return await session.scalar(
        select(Task).where(Task.id == task_id, Task.workspace_id == workspace_id)
    )


async def agent(session: AsyncSession, agent_id: uuid.UUID) -> Agent | None:
    return await session.get(Agent, agent_id)


async def users_by_id(session: AsyncSession, ids: Sequence[uuid.UUID]) -> dict[uuid.UUID, User]:
    if not ids:
        return {}
    return {u.id: u for u in await session.scalars(select(User).where(User.id.in_(set(ids))))}


async def organizations_by_id(
    session: AsyncSession, ids: Sequence[uuid.UUID]
) -> dict[uuid.UUID, Organization]:
    if not ids:
        return {}
    result = await session.scalars(select(Organization).where(Organization.id.in_(set(ids))))
    return {o.id: o for o in result}


async def organization_by_slug(session: AsyncSession, slug: str) -> Organization | None:
    return await session.scalar(select(Organization).where(Organization.slug == slug.lower()))
