"""All SQL for the history feed: one statement per page, a UNION ALL of one keyset branch per
kind (each on an index whose order is (workspace, [creator,] updated_at, id), limit + 1 rows),
merged and cut by the database. The statement is prepared once per shape of the filter (which
conditions apply) and the kinds asked for, and read lean (kit/reads.py).
Reading the source tables directly means there is no second copy that could drift: every write
is visible to the next read."""

from __future__ import annotations

import functools
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import (
    BigInteger,
    BindParameter,
    ColumnElement,
    String,
    bindparam,
    cast,
    func,
    literal_column,
    null,
    or_,
    select,
    tuple_,
    union_all,
)
from sqlalchemy.ext.asyncio import AsyncSession

from agora.kit.reads import Prepared, read_all
from agora.models import Conversation, CoworkerUsage, Job, Task
from agora.models.statuses import ConversationState


@dataclass(frozen=True)
class Row:
    kind: str
    id: uuid.UUID
    title: str
    status: str | None
    project_id: uuid.UUID | None
    net_spend: int | None  # tasks and jobs; None for conversations
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


def _branch(
    kind: str,
    model: Any,
    conditions: list[Any],
    *,
    title: Any,
    status: Any,
    project_id: Any,
    net: Any,
) -> Any:
    """One kind's newest rows after the position (limit + 1), on its index, in the feed's
    columns: a subquery, so that each branch of the feed's UNION ALL keeps its own ORDER BY and
    LIMIT (SQLite refuses them on a bare member of a compound select)."""
    query = select(
        literal_column(f"'{kind}'", String).label("kind"),
        model.id,
        title.label("title"),
        status.label("status"),
        project_id.label("project_id"),
        cast(net, BigInteger).label("net"),
        model.created_at,
        model.updated_at,
    ).where(*conditions)
    ordered = query.order_by(model.updated_at.desc(), model.id.desc())
    return select(ordered.limit(bindparam("limit")).subquery())


def _none(like: Any) -> Any:
    """NULL typed as ``like`` (the UNION's members must agree on their columns' types)."""
    return cast(null(), like.type)


_ZERO = literal_column("0", BigInteger)


def _task_branch(shape: tuple[bool, ...], include_archived: bool) -> Any:
    conditions = _conditions(Task, shape, Task.creator_id)
    if not include_archived:
        conditions.append(Task.archived_at.is_(None))
    if shape[-1]:
        conditions.append(text_match([Task.name, Task.description], bindparam("pattern")))
    # The task's net spend: its jobs' price - refund plus its coworker usage (tasks.repository's
    # spend_by_task), on the jobs' and the usage's task_id indexes, for the branch's rows only.
    jobs = (
        select(func.coalesce(func.sum(Job.price - Job.refund), _ZERO))
        .where(Job.task_id == Task.id)
        .scalar_subquery()
    )
    usage = (
        select(func.coalesce(func.sum(CoworkerUsage.credits), _ZERO))
        .where(CoworkerUsage.task_id == Task.id)
        .scalar_subquery()
    )
    return _branch(
        "task",
        Task,
        conditions,
        title=Task.name,
        status=Task.status,
        project_id=Task.project_id,
        net=jobs + usage,
    )


def _job_branch(shape: tuple[bool, ...]) -> Any:
    conditions = _conditions(Job, shape, Job.user_id)
    if shape[-1]:
        conditions.append(text_match([Job.name], bindparam("pattern")))
    return _branch(
        "job",
        Job,
        conditions,
        title=Job.name,
        status=Job.status,
        project_id=Job.project_id,
        net=Job.price - Job.refund,
    )


def _conversation_branch(shape: tuple[bool, ...], states: frozenset[str]) -> Any:
    # The caller's own conversations whatever the scope (rule 1); no status or project.
    _owned, positioned, *_, searched = shape
    conditions = _conditions(Conversation, (False, positioned, False, False, False, searched), None)
    conditions.append(Conversation.user_id == bindparam("user_id"))
    if states == {ConversationState.ARCHIVED}:
        conditions.append(Conversation.archived_at.is_not(None))
    elif states != set(ConversationState):
        conditions.append(Conversation.archived_at.is_(None))
    if searched:
        columns = [Conversation.title, Conversation.description]
        conditions.append(text_match(columns, bindparam("pattern")))
    return _branch(
        "conversation",
        Conversation,
        conditions,
        title=Conversation.title,
        status=_none(Task.status),
        project_id=_none(Task.project_id),
        net=null(),
    )


@dataclass(frozen=True)
class Kinds:
    """Which kinds a page reads (and how): the branches of its UNION ALL."""

    tasks: bool
    jobs: bool
    conversations: bool
    include_archived: bool  # tasks: archived ones too
    states: frozenset[str]  # conversations: the states asked for

    def any(self) -> bool:
        return self.tasks or self.jobs or self.conversations


@functools.cache
def _feed_statement(shape: tuple[bool, ...], kinds: Kinds) -> Prepared:
    """One statement per page, whatever the kinds: each kind's newest rows after the position
    (limit + 1, on its index), merged by the database (UNION ALL, then the feed's order)."""
    branches: list[Any] = []
    if kinds.tasks:
        branches.append(_task_branch(shape, kinds.include_archived))
    if kinds.jobs:
        branches.append(_job_branch(shape))
    if kinds.conversations:
        branches.append(_conversation_branch(shape, kinds.states))
    union: Any = union_all(*branches) if len(branches) > 1 else branches[0]
    merged = union.subquery()
    return Prepared(
        select(merged)
        .order_by(merged.c.updated_at.desc(), merged.c.id.desc())
        .limit(bindparam("limit"))
    )


async def feed_rows(session: AsyncSession, f: FeedFilter, kinds: Kinds, *, limit: int) -> list[Row]:
    """The feed's next ``limit`` rows after ``f.position``, newest first (one statement). A
    task's ``net_spend`` is its jobs' and its coworker usage's."""
    if not kinds.any():
        return []
    rows = await read_all(session, _feed_statement(f.shape(), kinds), **f.params(), limit=limit)
    return [Row(r[0], r[1], r[2], r[3], r[4], _int(r[5]), r[6], r[7]) for r in rows]


def _int(value: Any) -> int | None:
    return None if value is None else int(value)
