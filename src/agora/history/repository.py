"""All SQL for the history feed: one keyset query per kind, each on an index whose order is
(workspace, [creator,] updated_at, id), merged by the service. Reading the source tables directly
means there is no second copy that could drift: every write is visible to the next read."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import ColumnElement, literal, or_, select, tuple_
from sqlalchemy.ext.asyncio import AsyncSession

from agora.models import Conversation, Job, Task


@dataclass(frozen=True)
class Row:
    kind: str
    id: uuid.UUID
    title: str
    status: str | None
    project_id: uuid.UUID | None
    net_spend: int | None  # jobs only; tasks are summed from their jobs
    created_at: datetime
    updated_at: datetime


def _like(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


def text_match(columns: Sequence[Any], q: str) -> ColumnElement[bool]:
    pattern = _like(q)
    return or_(*(column.ilike(pattern, escape="\\") for column in columns))


def after(model: Any, position: tuple[datetime, uuid.UUID] | None) -> list[ColumnElement[bool]]:
    if position is None:
        return []
    return [tuple_(model.updated_at, model.id) < tuple_(position[0], position[1])]


async def _fetch(session: AsyncSession, query: Any, model: Any, limit: int) -> list[Any]:
    ordered = query.order_by(model.updated_at.desc(), model.id.desc()).limit(limit)
    return list((await session.execute(ordered)).all())


async def tasks(
    session: AsyncSession, conditions: list[ColumnElement[bool]], limit: int
) -> list[Row]:
    query = select(
        Task.id, Task.name, Task.status, Task.project_id, Task.created_at, Task.updated_at
    ).where(*conditions)
    rows = await _fetch(session, query, Task, limit)
    return [Row("task", r[0], r[1], r[2], r[3], None, r[4], r[5]) for r in rows]


async def jobs(
    session: AsyncSession, conditions: list[ColumnElement[bool]], limit: int
) -> list[Row]:
    query = select(
        Job.id,
        Job.name,
        Job.status,
        Job.project_id,
        (Job.price - Job.refund).label("net"),
        Job.created_at,
        Job.updated_at,
    ).where(*conditions)
    rows = await _fetch(session, query, Job, limit)
    return [Row("job", r[0], r[1], r[2], r[3], int(r[4]), r[5], r[6]) for r in rows]


async def conversations(
    session: AsyncSession, conditions: list[ColumnElement[bool]], limit: int
) -> list[Row]:
    query = select(
        Conversation.id,
        Conversation.title,
        literal(None).label("status"),
        Conversation.created_at,
        Conversation.updated_at,
    ).where(*conditions)
    rows = await _fetch(session, query, Conversation, limit)
    return [Row("conversation", r[0], r[1], None, None, None, r[3], r[4]) for r in rows]


@dataclass(frozen=True)
class FeedFilter:
    """The feed's WHERE, in plain values (the service parses and checks them)."""

    workspace_id: uuid.UUID
    user_id: uuid.UUID  # the caller
    owned: bool  # scope=owned: only what the caller created
    position: tuple[datetime, uuid.UUID] | None
    statuses: frozenset[str]
    project: uuid.UUID | None
    unassigned: bool
    q: str | None


def _project_conditions(model: Any, f: FeedFilter) -> list[ColumnElement[bool]]:
    if f.project is not None:
        return [model.project_id == f.project]
    if f.unassigned:
        return [model.project_id.is_(None)]
    return []


async def task_rows(
    session: AsyncSession, f: FeedFilter, *, include_archived: bool, limit: int
) -> list[Row]:
    conditions = [Task.workspace_id == f.workspace_id, *after(Task, f.position)]
    if f.owned:
        conditions.append(Task.creator_id == f.user_id)
    if f.statuses:
        conditions.append(Task.status.in_(f.statuses))
    if not include_archived:
        conditions.append(Task.archived_at.is_(None))
    conditions += _project_conditions(Task, f)
    if f.q:
        conditions.append(text_match([Task.name, Task.description], f.q))
    return await tasks(session, conditions, limit)


async def job_rows(session: AsyncSession, f: FeedFilter, *, limit: int) -> list[Row]:
    conditions = [Job.workspace_id == f.workspace_id, *after(Job, f.position)]
    if f.owned:
        conditions.append(Job.user_id == f.user_id)
    if f.statuses:
        conditions.append(Job.status.in_(f.statuses))
    conditions += _project_conditions(Job, f)
    if f.q:
        conditions.append(text_match([Job.name], f.q))
    return await jobs(session, conditions, limit)


async def conversation_rows(
    session: AsyncSession, f: FeedFilter, *, states: frozenset[str], limit: int
) -> list[Row]:
    """The caller's own conversations, whatever the scope (rule 1)."""
    conditions = [
        Conversation.workspace_id == f.workspace_id,
        Conversation.user_id == f.user_id,
        *after(Conversation, f.position),
    ]
    if states == {"archived"}:
        conditions.append(Conversation.archived_at.is_not(None))
    elif states != {"active", "archived"}:
        conditions.append(Conversation.archived_at.is_(None))
    if f.q:
        conditions.append(text_match([Conversation.title, Conversation.description], f.q))
    return await conversations(session, conditions, limit)
