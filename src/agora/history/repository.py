"""All SQL for the history feed: one keyset query per kind, each on an index whose order is
(workspace, [creator,] updated_at, id), merged by the service. Each kind's statement is
prepared once per shape of the filter (which conditions apply) and read lean (kit/reads.py).
Reading the source tables directly means there is no second copy that could drift: every write
is visible to the next read."""

from __future__ import annotations

import functools
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import BindParameter, ColumnElement, bindparam, or_, select, tuple_
from sqlalchemy.ext.asyncio import AsyncSession

from agora.kit.reads import Prepared, read_all
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


def text_match(columns: Sequence[Any], q: str | BindParameter[str]) -> ColumnElement[bool]:
    """Case-insensitive substring search in ``columns`` (``q``: the text, or a parameter that
    will carry ``_like(text)``)."""
    pattern = q if isinstance(q, BindParameter) else _like(q)
    return or_(*(column.ilike(pattern, escape="\\") for column in columns))


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

    def shape(self) -> tuple[bool, ...]:
        """Which conditions apply: one prepared statement per kind and shape (kit/reads.py)."""
        return (
            self.owned,
            self.position is not None,
            bool(self.statuses),
            self.project is not None,
            self.unassigned,
            self.q is not None,
        )

    def params(self) -> dict[str, Any]:
        """The values of the shape's parameters."""
        values: dict[str, Any] = {"workspace_id": self.workspace_id, "user_id": self.user_id}
        if self.position is not None:
            values["after_at"], values["after_id"] = self.position
        if self.statuses:
            values["statuses"] = sorted(self.statuses)
        if self.project is not None:
            values["project_id"] = self.project
        if self.q is not None:
            values["pattern"] = _like(self.q)
        return values


def _conditions(model: Any, shape: tuple[bool, ...], owner: Any) -> list[ColumnElement[bool]]:
    owned, positioned, by_status, by_project, unassigned, _searched = shape
    conditions = [model.workspace_id == bindparam("workspace_id")]
    if positioned:
        after = tuple_(  # typed: a tuple's parameters take no type from the comparison
            bindparam("after_at", type_=model.updated_at.type),
            bindparam("after_id", type_=model.id.type),
        )
        conditions.append(tuple_(model.updated_at, model.id) < after)
    if owned and owner is not None:
        conditions.append(owner == bindparam("user_id"))
    if by_status and hasattr(model, "status"):
        conditions.append(model.status.in_(bindparam("statuses", expanding=True)))
    if by_project:
        conditions.append(model.project_id == bindparam("project_id"))
    elif unassigned:
        conditions.append(model.project_id.is_(None))
    return conditions


def _ordered(query: Any, model: Any) -> Prepared:
    ordered = query.order_by(model.updated_at.desc(), model.id.desc())
    return Prepared(ordered.limit(bindparam("limit")))


@functools.cache
def _task_statement(shape: tuple[bool, ...], include_archived: bool) -> Prepared:
    conditions = _conditions(Task, shape, Task.creator_id)
    if not include_archived:
        conditions.append(Task.archived_at.is_(None))
    if shape[-1]:
        conditions.append(text_match([Task.name, Task.description], bindparam("pattern")))
    query = select(
        Task.id, Task.name, Task.status, Task.project_id, Task.created_at, Task.updated_at
    ).where(*conditions)
    return _ordered(query, Task)


@functools.cache
def _job_statement(shape: tuple[bool, ...]) -> Prepared:
    conditions = _conditions(Job, shape, Job.user_id)
    if shape[-1]:
        conditions.append(text_match([Job.name], bindparam("pattern")))
    query = select(
        Job.id,
        Job.name,
        Job.status,
        Job.project_id,
        (Job.price - Job.refund).label("net"),
        Job.created_at,
        Job.updated_at,
    ).where(*conditions)
    return _ordered(query, Job)


@functools.cache
def _conversation_statement(shape: tuple[bool, ...], states: frozenset[str]) -> Prepared:
    # The caller's own conversations whatever the scope (rule 1); no status or project.
    _owned, positioned, *_, searched = shape
    conditions = _conditions(Conversation, (False, positioned, False, False, False, searched), None)
    conditions.append(Conversation.user_id == bindparam("user_id"))
    if states == {"archived"}:
        conditions.append(Conversation.archived_at.is_not(None))
    elif states != {"active", "archived"}:
        conditions.append(Conversation.archived_at.is_(None))
    if searched:
        columns = [Conversation.title, Conversation.description]
        conditions.append(text_match(columns, bindparam("pattern")))
    query = select(
        Conversation.id, Conversation.title, Conversation.created_at, Conversation.updated_at
    ).where(*conditions)
    return _ordered(query, Conversation)


async def task_rows(
    session: AsyncSession, f: FeedFilter, *, include_archived: bool, limit: int
) -> list[Row]:
    statement = _task_statement(f.shape(), include_archived)
    rows = await read_all(session, statement, **f.params(), limit=limit)
    return [Row("task", r[0], r[1], r[2], r[3], None, r[4], r[5]) for r in rows]


async def job_rows(session: AsyncSession, f: FeedFilter, *, limit: int) -> list[Row]:
    rows = await read_all(session, _job_statement(f.shape()), **f.params(), limit=limit)
    return [Row("job", r[0], r[1], r[2], r[3], int(r[4]), r[5], r[6]) for r in rows]


async def conversation_rows(
    session: AsyncSession, f: FeedFilter, *, states: frozenset[str], limit: int
) -> list[Row]:
    """The caller's own conversations, whatever the scope (rule 1)."""
    statement = _conversation_statement(f.shape(), states)
    params = {k: v for k, v in f.params().items() if k not in ("statuses", "project_id")}
    rows = await read_all(session, statement, **params, limit=limit)
    return [Row("conversation", r[0], r[1], None, None, None, r[2], r[3]) for r in rows]
