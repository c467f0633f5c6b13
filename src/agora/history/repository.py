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
