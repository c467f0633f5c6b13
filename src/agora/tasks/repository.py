"""All SQL for tasks."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import BindParameter, bindparam, delete, func, inspect, or_, select, union_all
from sqlalchemy.ext.asyncio import AsyncSession

from agora.kit.reads import Prepared, read_all, read_one
from agora.models import (
    Agent,
    Coworker,
    CoworkerUsage,
    Job,
    Organization,
    OrganizationMember,
    Task,
    TaskEvent,
    TaskParticipant,
    User,
    Workspace,
)


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


def _spend_statement() -> Prepared:
    """Each task's net spend in one statement: its jobs' price - refund and its coworker usage,
    summed over both (docs/performance.md, "Fifth round: lists")."""
    ids: BindParameter[uuid.UUID] = bindparam("task_ids", expanding=True)
    parts = union_all(
        select(Job.task_id.label("task_id"), (Job.price - Job.refund).label("amount")).where(
            Job.task_id.in_(ids)
        ),
        select(CoworkerUsage.task_id, CoworkerUsage.credits).where(CoworkerUsage.task_id.in_(ids)),
    ).subquery()
    return Prepared(
        select(parts.c.task_id, func.sum(parts.c.amount).label("total")).group_by(parts.c.task_id)
    )


_SPEND = _spend_statement()


async def spend_by_task(
    session: AsyncSession, task_ids: Sequence[uuid.UUID]
) -> dict[uuid.UUID, int]:
    """Net spend (base units) of each task: its jobs' price - refund, plus coworker usage (one
    prepared read; tasks without either are absent)."""
    if not task_ids:
        return {}
    rows = await read_all(session, _SPEND, task_ids=list(dict.fromkeys(task_ids)))
    return {row.task_id: int(row.total or 0) for row in rows if row.task_id is not None}


async def add_event(session: AsyncSession, event: TaskEvent) -> TaskEvent:
    session.add(event)
    await session.flush()
    return event


def _attributes(model: Any) -> list[Any]:
    """The model's columns, each labelled with its attribute's name (``meta``, not
    ``metadata``): a row the schemas read as they read the entity."""
    return [attr.columns[0].label(attr.key) for attr in inspect(model).column_attrs]


# The snapshot's hot reads, prepared (kit/reads.py): rows, read by the schemas as dicts. Each
# column under its attribute's name (the ``metadata`` column is ``meta``).
_EVENTS_OF = Prepared(
    select(*_attributes(TaskEvent))
    .where(TaskEvent.task_id.in_(bindparam("task_ids", expanding=True)))
    .order_by(TaskEvent.created_at, TaskEvent.id)
    .limit(bindparam("limit"))
)
_JOBS_OF = Prepared(
    select(
        *_attributes(Job),
        Agent.base_url.like(bindparam("demo_pattern")).label("is_demo_agent"),
    )
    .outerjoin(Agent, Agent.id == Job.agent_id)
    .where(Job.task_id.in_(bindparam("task_ids", expanding=True)))
    .order_by(Job.id)
    .limit(bindparam("limit"))
)


async def events_of(session: AsyncSession, task_ids: Sequence[uuid.UUID], limit: int) -> list[Any]:
    """The tasks' events (rows), oldest first (at most ``limit`` in all)."""
    if not task_ids:
        return []
    return await read_all(session, _EVENTS_OF, task_ids=list(dict.fromkeys(task_ids)), limit=limit)


async def jobs_of(
    session: AsyncSession, task_ids: Sequence[uuid.UUID], limit: int, demo_path: str
) -> list[Any]:
    """The tasks' jobs (rows: the job's columns and ``is_demo_agent``: whether the agent's
    address has ``demo_path`` in it), oldest first (at most ``limit`` in all)."""
    if not task_ids:
        return []
    ids = list(dict.fromkeys(task_ids))
    return await read_all(
        session, _JOBS_OF, task_ids=ids, limit=limit, demo_pattern=f"%{demo_path}%"
    )


def _events_statement(after: bool) -> Prepared:
    """Events of the tasks assigned to the coworker in the workspace, not written by itself,
    oldest first (ids are time-ordered): rows of the event's columns under their attributes'
    names (``meta``), as the task snapshots read them."""
    coworker = bindparam("coworker_id", type_=Task.coworker_id.type)
    conditions = [
        Task.coworker_id == coworker,
        Task.workspace_id == bindparam("workspace_id"),
        or_(TaskEvent.actor_coworker_id.is_(None), TaskEvent.actor_coworker_id != coworker),
    ]
    if after:
        conditions.append(TaskEvent.id > bindparam("after_id", type_=TaskEvent.id.type))
    return Prepared(
        select(*_attributes(TaskEvent))
        .join(Task, Task.id == TaskEvent.task_id)
        .where(*conditions)
        .order_by(TaskEvent.id)
        .limit(bindparam("limit"))
    )


# Prepared (the first page, and after a cursor) and read lean (kit/reads.py).
_EVENTS = {after: _events_statement(after) for after in (False, True)}


async def events_addressed_to(
    session: AsyncSession,
    coworker_id: uuid.UUID,
    workspace_id: uuid.UUID,
    after_id: uuid.UUID | None,
    limit: int,
) -> list[Any]:
    """Events of the tasks assigned to the coworker in the workspace, not written by itself,
    oldest first (rows)."""
    params: dict[str, Any] = {
        "coworker_id": coworker_id,
        "workspace_id": workspace_id,
        "limit": limit,
    }
    if after_id is not None:
        params["after_id"] = after_id
    return await read_all(session, _EVENTS[after_id is not None], **params)


# What a snapshot shows of the people, coworkers, workspace and organization (the schemas'
# ``NamedRef``, ``CoworkerRef``, ``OrganizationRef``), as prepared rows.
_IDS = "ids"
_PEOPLE = Prepared(select(User.id, User.name).where(User.id.in_(bindparam(_IDS, expanding=True))))
_COWORKER_REFS = Prepared(
    select(Coworker.id, Coworker.name, Coworker.slug).where(
        Coworker.id.in_(bindparam(_IDS, expanding=True))
    )
)
_WORKSPACE_REFS = Prepared(
    select(Workspace.id, Workspace.name, Workspace.organization_id).where(
        Workspace.id.in_(bindparam(_IDS, expanding=True))
    )
)
_ORGANIZATION_REFS = Prepared(
    select(Organization.id, Organization.name, Organization.slug).where(
        Organization.id.in_(bindparam(_IDS, expanding=True))
    )
)


async def _refs(
    session: AsyncSession, statement: Prepared, ids: Sequence[uuid.UUID | None]
) -> dict[uuid.UUID, Any]:
    wanted = list(dict.fromkeys(i for i in ids if i is not None))
    if not wanted:
        return {}
    return {row.id: row for row in await read_all(session, statement, ids=wanted)}


async def people(session: AsyncSession, ids: Sequence[uuid.UUID | None]) -> dict[uuid.UUID, Any]:
    """Users by id: rows of their id and name."""
    return await _refs(session, _PEOPLE, ids)


async def coworker_refs(
    session: AsyncSession, ids: Sequence[uuid.UUID | None]
) -> dict[uuid.UUID, Any]:
    """Coworkers by id: rows of their id, name and slug."""
    return await _refs(session, _COWORKER_REFS, ids)


async def workspace_refs(
    session: AsyncSession, ids: Sequence[uuid.UUID | None]
) -> dict[uuid.UUID, Any]:
    """Workspaces by id: rows of their id, name and organization_id."""
    return await _refs(session, _WORKSPACE_REFS, ids)


async def organization_refs(
    session: AsyncSession, ids: Sequence[uuid.UUID | None]
) -> dict[uuid.UUID, Any]:
    """Organizations by id: rows of their id, name and slug."""
    return await _refs(session, _ORGANIZATION_REFS, ids)


async def coworker(session: AsyncSession, coworker_id: uuid.UUID) -> Coworker | None:
    return await session.get(Coworker, coworker_id)


@dataclass(frozen=True)
class TaskWhere:
    """The task listing's filters: ``statuses`` (any of them), ``project_id`` (or ``unassigned``:
    in no project), ``archived`` ("true", "false" or anything else for both), ``creator_id``
    (only that user's tasks), ``coworker_ids`` (assigned to each of them: all must hold),
    ``name_contains`` (a case-insensitive substring of the name), ``assignee_user_id``."""

    statuses: Sequence[str] = ()
    project_id: uuid.UUID | None = None
    unassigned: bool = False
    archived: str = "false"
    creator_id: uuid.UUID | None = None
    coworker_ids: Sequence[uuid.UUID] = ()
    name_contains: str | None = None
    assignee_user_id: uuid.UUID | None = None

    def shape(self) -> tuple[Any, ...]:
        """Which conditions the WHERE has (not their values): one prepared statement each."""
        project = "null" if self.unassigned else ("id" if self.project_id is not None else None)
        return (
            self.creator_id is not None,
            len(self.coworker_ids),
            bool(self.name_contains),
            bool(self.statuses),
            project,
            self.archived if self.archived in ("true", "false") else None,
            self.assignee_user_id is not None,
        )

    def params(self) -> dict[str, Any]:
        """The values of the shape's parameters."""
        params: dict[str, Any] = {f"coworker{i}": c for i, c in enumerate(self.coworker_ids)}
        if self.creator_id is not None:
            params["creator_id"] = self.creator_id
        if self.assignee_user_id is not None:
            params["assignee_user_id"] = self.assignee_user_id
        if self.name_contains:
            params["pattern"] = _like_pattern(self.name_contains)
        if self.statuses:
            params["statuses"] = list(self.statuses)
        if self.project_id is not None and not self.unassigned:
            params["project_id"] = self.project_id
        return params


def _like_pattern(text: str) -> str:
    escaped = text.lower().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


def _conditions(shape: tuple[Any, ...]) -> list[Any]:
    owned, coworkers, named, statuses, project, archived, assigned = shape
    conditions: list[Any] = [Task.workspace_id == bindparam("workspace_id")]
    if owned:
        conditions.append(Task.creator_id == bindparam("creator_id"))
    if assigned:
        conditions.append(Task.assignee_user_id == bindparam("assignee_user_id"))
    conditions.extend(Task.coworker_id == bindparam(f"coworker{i}") for i in range(coworkers))
    if named:
        conditions.append(func.lower(Task.name).like(bindparam("pattern"), escape="\\"))
    if statuses:
        conditions.append(Task.status.in_(bindparam("statuses", expanding=True)))
    if project == "null":
        conditions.append(Task.project_id.is_(None))
    elif project == "id":
        conditions.append(Task.project_id == bindparam("project_id"))
    if archived == "false":
        conditions.append(Task.archived_at.is_(None))
    elif archived == "true":
        conditions.append(Task.archived_at.is_not(None))
    return conditions


# The listing, prepared per shape of its filters: the page's rows with the count of every
# matching task beside each (one statement for both), and the count alone (past the end).
_LISTINGS: dict[tuple[Any, ...], tuple[Prepared, Prepared]] = {}


def _listing_statements(shape: tuple[Any, ...]) -> tuple[Prepared, Prepared]:
    found = _LISTINGS.get(shape)
    if found is None:
        conditions = _conditions(shape)
        page = Prepared(
            select(*_attributes(Task), func.count().over().label("total"))
            .where(*conditions)
            .order_by(Task.updated_at.desc(), Task.id.desc())
            .offset(bindparam("offset"))
            .limit(bindparam("limit"))
        )
        count = Prepared(select(func.count().label("total")).select_from(Task).where(*conditions))
        found = _LISTINGS[shape] = (page, count)
    return found


async def listing(
    session: AsyncSession, workspace_id: uuid.UUID, where: TaskWhere, *, offset: int, limit: int
) -> tuple[list[Any], int]:
    """A page of the listing (rows, most recently updated first) and the number of tasks that
    match."""
    page, count = _listing_statements(where.shape())
    params = {"workspace_id": workspace_id, **where.params()}
    rows = await read_all(session, page, offset=offset, limit=limit, **params)
    if rows:
        return rows, int(rows[0].total)
    if offset == 0:
        return [], 0
    total = await read_one(session, count, **params)  # past the end: the count alone
    return [], int(total.total) if total is not None else 0


# People on tasks: the workspace's members (who may be assignees and participants) and the
# participants of a page of tasks.


def _members_query(workspace_id: uuid.UUID) -> Any:
    """The workspace's people: the owner of a personal workspace, or the members of the
    organization that owns it."""
    org_member = (
        select(OrganizationMember.user_id)
        .join(Workspace, Workspace.organization_id == OrganizationMember.organization_id)
        .where(Workspace.id == workspace_id)
    )
    owner = select(Workspace.owner_user_id).where(Workspace.id == workspace_id)
    return or_(User.id.in_(org_member), User.id.in_(owner))


async def workspace_members(
    session: AsyncSession, workspace_id: uuid.UUID, limit: int
) -> list[Any]:
    """Rows of id, name and email of the workspace's people, by name (at most ``limit``)."""
    rows = await session.execute(
        select(User.id, User.name, User.email)
        .where(_members_query(workspace_id))
        .order_by(User.name, User.id)
        .limit(limit)
    )
    return list(rows)


async def workspace_member(
    session: AsyncSession, workspace_id: uuid.UUID, user_id: uuid.UUID
) -> Any | None:
    """The row (id, name, email) of one of the workspace's people, or None."""
    rows = await session.execute(
        select(User.id, User.name, User.email).where(
            User.id == user_id, _members_query(workspace_id)
        )
    )
    return rows.first()


async def participants_of(session: AsyncSession, task_ids: Sequence[uuid.UUID]) -> list[Any]:
    """Rows of task_id, id and name of the tasks' participants, in the order they joined."""
    if not task_ids:
        return []
    return await read_all(session, _PARTICIPANTS_OF, task_ids=list(dict.fromkeys(task_ids)))


_PARTICIPANTS_OF = Prepared(
    select(TaskParticipant.task_id, User.id, User.name)
    .join(User, User.id == TaskParticipant.user_id)
    .where(TaskParticipant.task_id.in_(bindparam("task_ids", expanding=True)))
    .order_by(TaskParticipant.created_at, User.id)
    .limit(1000)
)


async def is_participant(session: AsyncSession, task_id: uuid.UUID, user_id: uuid.UUID) -> bool:
    found = await session.scalar(
        select(TaskParticipant.user_id).where(
            TaskParticipant.task_id == task_id, TaskParticipant.user_id == user_id
        )
    )
    return found is not None


async def add_participant(session: AsyncSession, task_id: uuid.UUID, user_id: uuid.UUID) -> None:
    session.add(TaskParticipant(task_id=task_id, user_id=user_id))
    await session.flush()


async def remove_participant(session: AsyncSession, task_id: uuid.UUID, user_id: uuid.UUID) -> None:
    await session.execute(
        delete(TaskParticipant).where(
            TaskParticipant.task_id == task_id, TaskParticipant.user_id == user_id
        )
    )
