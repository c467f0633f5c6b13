"""All SQL for tasks."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from agora.models import Job, Task


async def add(session: AsyncSession, task: Task) -> Task:
    session.add(task)
    await session.flush()
    return task


async def get(session: AsyncSession, workspace_id: uuid.UUID, task_id: uuid.UUID) -> Task | None:
    return await session.scalar(
        select(Task).where(Task.id == task_id, Task.workspace_id == workspace_id)
    )


async def get_for_update(
    session: AsyncSession, workspace_id: uuid.UUID, task_id: uuid.UUID
) -> Task | None:
    return await session.scalar(
        select(Task).where(Task.id == task_id, Task.workspace_id == workspace_id).with_for_update()
    )


async def count(session: AsyncSession, conditions: Sequence[Any]) -> int:
    query = select(func.count()).select_from(Task).where(*conditions)
    return int(await session.scalar(query) or 0)


async def page(
    session: AsyncSession, conditions: Sequence[Any], *, offset: int, limit: int
) -> list[Task]:
    result = await session.scalars(
        select(Task)
        .where(*conditions)
        .order_by(Task.updated_at.desc(), Task.id.desc())
        .offset(offset)
        .limit(limit)
    )
    return list(result)


async def spend_by_task(
    session: AsyncSession, task_ids: Sequence[uuid.UUID]
) -> dict[uuid.UUID, int]:
    """Net spend (price - refund, base units) of each task's jobs."""
    if not task_ids:
        return {}
    rows = await session.execute(
        select(Job.task_id, func.coalesce(func.sum(Job.price - Job.refund), 0))
        .where(Job.task_id.in_(task_ids))
        .group_by(Job.task_id)
    )
    return {task_id: int(total) for task_id, total in rows.all() if task_id is not None}
