"""All SQL for the history feed: one keyset query per kind, each on an index whose order is
(workspace, [creator,] updated_at, id), sent as ONE statement (``UNION ALL``) and merged here.
Reading the source tables directly means there is no second copy that could drift: every write
is visible to the next read."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import (
    ColumnElement,
    Select,
    String,
    Uuid,
    cast,
    literal_column,
    null,
    or_,
    select,
    tuple_,
    union_all,
)
from sqlalchemy.ext.asyncio import AsyncSession

from agora.models import Conversation, Job, Task
from agora.models.base import BigInt


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


def _branch(
    kind: str,
    model: Any,
    title: Any,
    status: Any,
    project_id: Any,
    net: Any,
    conditions: list[ColumnElement[bool]],
    limit: int,
) -> Select[Any]:
    """One kind's keyset page, in the feed's columns: newest change first, on its index."""
    return (
        select(
            literal_column(f"'{kind}'", String).label("kind"),
            model.id.label("id"),
            title.label("title"),
            status.label("status"),
            project_id.label("project_id"),
            net.label("net"),
            model.created_at.label("created_at"),
            model.updated_at.label("updated_at"),
        )
        .where(*conditions)
        .order_by(model.updated_at.desc(), model.id.desc())
        .limit(limit)
    )


async def feed(session: AsyncSession, branches: Sequence[Select[Any]]) -> list[Row]:
    """The kinds' pages in ONE statement (``UNION ALL`` of the limited branches: one round trip
    instead of one per kind; each branch still reads its own index), newest change first."""
    if not branches:
        return []
    statement = (
        branches[0]
        if len(branches) == 1
        else union_all(*(select(branch.subquery()) for branch in branches))
    )
    rows = [
        Row(r[0], r[1], r[2], r[3], r[4], int(r[5]) if r[0] == "job" else None, r[6], r[7])
        for r in (await session.execute(statement)).all()
    ]
    rows.sort(key=lambda r: (r.updated_at, r.id), reverse=True)
    return rows


def _tasks(conditions: list[ColumnElement[bool]], limit: int) -> Select[Any]:
    return _branch(
        "task", Task, Task.name, Task.status, Task.project_id, _NO_NET, conditions, limit
    )


def _jobs(conditions: list[ColumnElement[bool]], limit: int) -> Select[Any]:
    net = Job.price - Job.refund
    return _branch("job", Job, Job.name, Job.status, Job.project_id, net, conditions, limit)


def _conversations(conditions: list[ColumnElement[bool]], limit: int) -> Select[Any]:
    return _branch(
        "conversation",
        Conversation,
        Conversation.title,
        cast(null(), String(40)),
        cast(null(), Uuid()),
        _NO_NET,
        conditions,
        limit,
    )


_NO_NET = cast(null(), BigInt)  # tasks are summed from their jobs; conversations cost nothing


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


def task_rows(f: FeedFilter, *, include_archived: bool, limit: int) -> Select[Any]:
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
    return _tasks(conditions, limit)


def job_rows(f: FeedFilter, *, limit: int) -> Select[Any]:
    conditions = [Job.workspace_id == f.workspace_id, *after(Job, f.position)]
    if f.owned:
        conditions.append(Job.user_id == f.user_id)
    if f.statuses:
        conditions.append(Job.status.in_(f.statuses))
    conditions += _project_conditions(Job, f)
    if f.q:
        conditions.append(text_match([Job.name], f.q))
    return _jobs(conditions, limit)


def conversation_rows(f: FeedFilter, *, states: frozenset[str], limit: int) -> Select[Any]:
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
    return _conversations(conditions, limit)
