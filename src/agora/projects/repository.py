"""All SQL for projects and for moving jobs and tasks in and out of them.

Lock order, on PostgreSQL: the project row first (``FOR UPDATE``), then the job/task rows. Assign,
unassign and delete all follow it, so they serialise per project and never deadlock. On SQLite a
write request holds the database write lock (``BEGIN IMMEDIATE``) for its whole transaction.
"""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from sqlalchemy import bindparam, delete, func, inspect, null, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from agora.kit.reads import Prepared, read_all
from agora.models import Job, Project, Task

Assignable = type[Job] | type[Task]


async def add(session: AsyncSession, project: Project) -> Project:
    session.add(project)
    await session.flush()
    return project


async def get(
    session: AsyncSession, workspace_id: uuid.UUID, project_id: uuid.UUID
) -> Project | None:
    return await session.scalar(
        select(Project).where(Project.id == project_id, Project.workspace_id == workspace_id)
    )


async def get_for_update(
    session: AsyncSession, workspace_id: uuid.UUID, project_id: uuid.UUID
) -> Project | None:
    return await session.scalar(
        select(Project)
        .where(Project.id == project_id, Project.workspace_id == workspace_id)
        .with_for_update()
    )


async def count(session: AsyncSession, workspace_id: uuid.UUID) -> int:
    query = select(func.count()).select_from(Project).where(Project.workspace_id == workspace_id)
    return int(await session.scalar(query) or 0)


_PAGE = Prepared(
    select(
        *(attr.columns[0].label(attr.key) for attr in inspect(Project).column_attrs),
        func.count().over().label("total"),
    )
    .where(Project.workspace_id == bindparam("workspace_id"))
    .order_by(Project.updated_at.desc(), Project.id.desc())
    .offset(bindparam("offset"))
    .limit(bindparam("limit"))
)


async def page_with_total(
    session: AsyncSession, workspace_id: uuid.UUID, *, offset: int, limit: int
) -> tuple[list[Any], int]:
    """A page of the workspace's projects (rows, most recently updated first) and how many it
    has: one prepared statement (the count alone past the end)."""
    rows = await read_all(session, _PAGE, workspace_id=workspace_id, offset=offset, limit=limit)
    if rows:
        return rows, int(rows[0].total)
    return [], (await count(session, workspace_id) if offset else 0)


async def touch(session: AsyncSession, project: Project, now: datetime) -> None:
    project.updated_at = now
    await session.flush()


async def set_project(
    session: AsyncSession,
    model: Assignable,
    *,
    workspace_id: uuid.UUID,
    resource_id: uuid.UUID,
    current: uuid.UUID | None,
    target: uuid.UUID | None,
    now: datetime,
) -> bool:
    """The compare-and-set: move the job/task from project ``current`` (None: from no project)
    to ``target`` (None: out of any), only if it is still in ``current``; a task goes into a
    project only while it is not archived. True when this statement made the change."""
    conditions: list[Any] = [
        model.id == resource_id,
        model.workspace_id == workspace_id,
        model.project_id.is_(None) if current is None else model.project_id == current,
    ]
    if model is Task and target is not None:
        conditions.append(Task.archived_at.is_(None))
    changed = await session.scalar(
        update(model)
        .where(*conditions)
        .values(project_id=target, updated_at=now)
        .returning(model.id)
        .execution_options(synchronize_session=False)
    )
    return changed is not None


async def placement(
    session: AsyncSession, model: Assignable, workspace_id: uuid.UUID, resource_id: uuid.UUID
) -> tuple[uuid.UUID | None, datetime | None, str | None] | None:
    """(project_id, archived_at, name of its project) of the job/task, or None if not visible."""
    archived_at: Any = Task.archived_at if model is Task else null()
    query = (
        select(model.project_id, archived_at, Project.name)
        .select_from(model)
        .outerjoin(Project, Project.id == model.project_id)
        .where(model.id == resource_id, model.workspace_id == workspace_id)
    )
    row = (await session.execute(query)).first()
    if row is None:
        return None
    return row[0], row[1], row[2]


async def delete_project(session: AsyncSession, project: Project, now: datetime) -> None:
    """Clear ``projectId`` on its jobs and tasks (bumping their updatedAt), then delete it."""
    for model in (Job, Task):
        await session.execute(
            update(model)
            .where(model.project_id == project.id)
            .values(project_id=None, updated_at=now)
            .execution_options(synchronize_session=False)
        )
    await session.execute(delete(Project).where(Project.id == project.id))
