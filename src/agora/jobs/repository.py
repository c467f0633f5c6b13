"""All SQL of the job API (the dispatcher's queue SQL lives in dispatch/repository.py)."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import date, datetime
from typing import Any, Protocol, cast

from sqlalchemy import CursorResult, Table, bindparam, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.ext.asyncio import AsyncSession

from agora.kit.reads import Prepared, read_all, read_one
from agora.kit.timeutil import utcnow
from agora.kit.writes import RowInsert, insert_row
from agora.models import (
    Agent,
    AgentDailyCompletions,
    Job,
    JobEvent,
    Organization,
    Task,
    User,
)
from agora.models.rows import AgentForJob, JobColumns
from agora.models.statuses import JobStatus

# A job at creation, and its events, are inserted by statements built once (kit/writes.py):
# the unit of work's flush was a third of a job creation's CPU (docs/performance.md).
_JOB_INSERT: RowInsert[JobColumns] = RowInsert(cast(Table, Job.__table__), shape=JobColumns)
_EVENT_INSERT = RowInsert(cast(Table, JobEvent.__table__))


async def insert(session: AsyncSession, **values: Any) -> JobColumns:
    """Insert a new job; the row as written (every column)."""
    return await insert_row(session, _JOB_INSERT, **values)


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


# The built-in demo agents are the ones served under /demo-agents/.
DEMO_AGENT_PATH = "/demo-agents/"
_IS_DEMO_AGENT = Agent.base_url.like(f"%{DEMO_AGENT_PATH}%")


def is_demo_agent(agent: AgentForJob) -> bool:
    """The rule of ``demo_agent_ids`` for an agent already loaded (no query)."""
    return DEMO_AGENT_PATH in agent.base_url


# Compiled once, read on the driver's connections (kit/reads.py): job by id is the most
# frequent read (docs/performance.md). The row is the job's columns and ``is_demo_agent``.
class JobWithDemo(JobColumns, Protocol):
    """A job's columns and whether its agent is a built-in demo agent."""

    @property
    def is_demo_agent(self) -> bool: ...


_VISIBLE_WITH_DEMO: Prepared[JobWithDemo] = Prepared(
    select(*Job.__table__.columns, _IS_DEMO_AGENT.label("is_demo_agent"))
    .outerjoin(Agent, Agent.id == Job.agent_id)
    .where(
        Job.id == bindparam("job_id"),
        Job.user_id == bindparam("user_id"),
        Job.workspace_id == bindparam("workspace_id"),
    ),
    shape=JobWithDemo,
)


async def visible_with_demo(
    session: AsyncSession, job_id: uuid.UUID, user_id: uuid.UUID, workspace_id: uuid.UUID
) -> tuple[JobColumns, bool] | None:
    """``visible`` (the job's columns as a row) and whether its agent is a built-in demo
    agent: one statement."""
    row = await read_one(
        session, _VISIBLE_WITH_DEMO, job_id=job_id, user_id=user_id, workspace_id=workspace_id
    )
    return None if row is None else (row, bool(row.is_demo_agent))


async def refresh(session: AsyncSession, job: Job) -> Job:
    await session.refresh(job)
    return job


_LISTINGS: dict[tuple[bool, bool, bool, bool], Prepared] = {}


def _listing_statement(shape: tuple[bool, bool, bool, bool]) -> Prepared:
    owned, by_agent, by_status, before = shape
    query = (
        select(*Job.__table__.columns, _IS_DEMO_AGENT.label("is_demo_agent"))
        .outerjoin(Agent, Agent.id == Job.agent_id)
        .where(Job.workspace_id == bindparam("workspace_id"))
    )
    if owned:
        query = query.where(Job.user_id == bindparam("user_id"))
    if by_agent:
        query = query.where(Job.agent_id == bindparam("agent_id"))
    if by_status:
        query = query.where(Job.status.in_(bindparam("statuses", expanding=True)))
    if before:
        query = query.where(Job.id < bindparam("before_id"))
    return Prepared(query.order_by(Job.id.desc()).limit(bindparam("limit")))


async def list_visible(
    session: AsyncSession,
    *,
    user_id: uuid.UUID | None,
    workspace_id: uuid.UUID,
    agent_id: uuid.UUID | None,
    statuses: Sequence[str],
    before_id: uuid.UUID | None,
    limit: int,
) -> list[Any]:
    """Newest first (ids are time-ordered UUIDv7), keyset-paged by id. ``user_id`` None: every
    member's jobs in the workspace. Rows: the job's columns and ``is_demo_agent`` (one prepared
    statement per shape of the filters)."""
    shape = (user_id is not None, agent_id is not None, bool(statuses), before_id is not None)
    statement = _LISTINGS.get(shape)
    if statement is None:
        statement = _LISTINGS[shape] = _listing_statement(shape)
    params: dict[str, Any] = {"workspace_id": workspace_id, "limit": limit}
    for name, value in (("user_id", user_id), ("agent_id", agent_id), ("before_id", before_id)):
        if value is not None:
            params[name] = value
    if statuses:
        params["statuses"] = list(statuses)
    return await read_all(session, statement, **params)


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


async def agent_protocol(session: AsyncSession, agent_id: uuid.UUID) -> str | None:
    """The protocol Agora speaks to the agent (``mip003`` | ``a2a``)."""
    found = await session.scalar(select(Agent.protocol).where(Agent.id == agent_id))
    return str(found) if found is not None else None


async def queue_again(session: AsyncSession, job_id: uuid.UUID, now: datetime) -> None:
    """Hand a finished job back to the dispatcher once (an A2A job cancelled by its person: the
    dispatcher sends ``tasks/cancel``, dispatch/a2a.py); ``updated_at`` is kept."""
    await session.execute(
        update(Job)
        .where(Job.id == job_id)
        .values(
            dispatch_state="queued",
            next_attempt_at=now,
            lease_owner=None,
            lease_expires_at=None,
            attempts=0,
            updated_at=Job.updated_at,
        )
    )


class SharerColumns(Protocol):
    """What a share shows of its sharer (``ShareUser``): a ``User``, or a row read lean."""

    @property
    def id(self) -> uuid.UUID: ...
    @property
    def name(self) -> str: ...
    @property
    def image(self) -> str | None: ...


class RecipientColumns(Protocol):
    """What a share shows of its recipient organization (``ShareOrganization``)."""

    @property
    def id(self) -> uuid.UUID: ...
    @property
    def name(self) -> str: ...
    @property
    def slug(self) -> str: ...
    @property
    def logo(self) -> str | None: ...


# The shares' sharers and recipients of a page of jobs, prepared and read lean (kit/reads.py).
_SHARERS: Prepared[SharerColumns] = Prepared(
    select(User.id, User.name, User.image).where(User.id.in_(bindparam("ids", expanding=True))),
    shape=SharerColumns,
)
_RECIPIENTS: Prepared[RecipientColumns] = Prepared(
    select(Organization.id, Organization.name, Organization.slug, Organization.logo).where(
        Organization.id.in_(bindparam("ids", expanding=True))
    ),
    shape=RecipientColumns,
)


async def users_by_id(
    session: AsyncSession, ids: Sequence[uuid.UUID]
) -> dict[uuid.UUID, SharerColumns]:
    if not ids:
        return {}
    return {u.id: u for u in await read_all(session, _SHARERS, ids=list(dict.fromkeys(ids)))}


async def organizations_by_id(
    session: AsyncSession, ids: Sequence[uuid.UUID]
) -> dict[uuid.UUID, RecipientColumns]:
    if not ids:
        return {}
    return {o.id: o for o in await read_all(session, _RECIPIENTS, ids=list(dict.fromkeys(ids)))}


async def latest_event_to(session: AsyncSession, job_id: uuid.UUID, status: str) -> JobEvent | None:
    """The job's most recent event that moved it to ``status``."""
    return await session.scalar(
        select(JobEvent)
        .where(JobEvent.job_id == job_id, JobEvent.to_status == status)
        .order_by(JobEvent.created_at.desc(), JobEvent.id.desc())
        .limit(1)
    )


async def event_of_job(
    session: AsyncSession, job_id: uuid.UUID, event_id: uuid.UUID
) -> JobEvent | None:
    return await session.scalar(
        select(JobEvent).where(JobEvent.id == event_id, JobEvent.job_id == job_id)
    )


async def demo_agent_ids(session: AsyncSession, agent_ids: Sequence[uuid.UUID]) -> set[uuid.UUID]:
    """Which of these agents are built-in demo agents (served under /demo-agents/)."""
    if not agent_ids:
        return set()
    rows = await session.scalars(
        select(Agent.id).where(Agent.id.in_(set(agent_ids)), _IS_DEMO_AGENT)
    )
    return set(rows)


async def compare_and_set_status(
    session: AsyncSession, job_id: uuid.UUID, from_status: str, values: dict[str, Any]
) -> bool:
    """Write ``values`` (which include the new status) only if the job is still in
    ``from_status``; False when another writer moved it first (nothing written then)."""
    result = await session.execute(
        update(Job)
        .where(Job.id == job_id, Job.status == from_status)
        .values(**values)
        .execution_options(synchronize_session=False)
    )
    return cast(CursorResult[Any], result).rowcount == 1  # an UPDATE's result


async def count_completion(session: AsyncSession, agent_id: uuid.UUID, day: date) -> None:
    """One more of the agent's jobs COMPLETED on ``day`` (UTC): an atomic upsert, so concurrent
    completions each count (PostgreSQL's ON CONFLICT DO UPDATE re-reads the committed row;
    SQLite has one writer at a time)."""
    dialect = session.get_bind().dialect.name
    insert = pg_insert if dialect == "postgresql" else sqlite_insert
    table = AgentDailyCompletions.__table__
    statement = insert(AgentDailyCompletions).values(agent_id=agent_id, day=day, count=1)
    await session.execute(
        statement.on_conflict_do_update(
            index_elements=[table.c.agent_id, table.c.day],
            set_={"count": table.c.count + 1},
        )
    )


async def add_event(session: AsyncSession, **values: Any) -> None:
    """Insert one of a job's events (``JobEvent``'s columns)."""
    await insert_row(session, _EVENT_INSERT, **values)


async def settle_once(session: AsyncSession, job_id: uuid.UUID, values: dict[str, Any]) -> bool:
    """Mark a final, unsettled job settled (compare-and-set on ``settled``)."""
    result = await session.execute(
        update(Job)
        .where(Job.id == job_id, Job.settled.is_(False))
        .values(**values)
        .execution_options(synchronize_session=False)
    )
    return cast(CursorResult[Any], result).rowcount == 1  # an UPDATE's result


async def refund_captured_once(
    session: AsyncSession, job_id: uuid.UUID, price: int, fee: int
) -> bool:
    """Mark a completed, settled credit job refunded in full, once (compare-and-set on
    ``refund`` still 0)."""
    result = await session.execute(
        update(Job)
        .where(
            Job.id == job_id,
            Job.status == JobStatus.COMPLETED,
            Job.settled.is_(True),
            Job.payment_backend.is_(None),
            Job.refund == 0,
            Job.price > 0,
        )
        .values(refund=price, refund_fee=fee, updated_at=utcnow())
        .execution_options(synchronize_session=False)
    )
    return cast(CursorResult[Any], result).rowcount == 1  # an UPDATE's result


async def set_share(
    session: AsyncSession,
    job_id: uuid.UUID,
    *,
    token: str,
    public: bool,
    recipient_organization_id: uuid.UUID | None,
    user_id: uuid.UUID,
    created_at: datetime | None,
    updated_at: datetime,
) -> None:
    """Write a job's share record."""
    await _write_share(
        session,
        job_id,
        share_token=token,
        share_public=public,
        share_recipient_organization_id=recipient_organization_id,
        share_user_id=user_id,
        share_created_at=created_at,
        share_updated_at=updated_at,
    )


async def clear_share(session: AsyncSession, job_id: uuid.UUID) -> None:
    await _write_share(
        session,
        job_id,
        share_token=None,
        share_public=False,
        share_recipient_organization_id=None,
        share_user_id=None,
        share_created_at=None,
        share_updated_at=None,
    )


async def _write_share(session: AsyncSession, job_id: uuid.UUID, **values: Any) -> None:
    """The share columns only: the job's ``updated_at`` is kept as it is."""
    await session.execute(
        update(Job).where(Job.id == job_id).values(**values, updated_at=Job.updated_at)
    )


class ExportedJob(Protocol):
    """A job as the CSV export writes it (no input, no result: a page stays small)."""

    @property
    def id(self) -> uuid.UUID: ...
    @property
    def created_at(self) -> datetime: ...
    @property
    def completed_at(self) -> datetime | None: ...
    @property
    def name(self) -> str: ...
    @property
    def status(self) -> str: ...
    @property
    def agent_id(self) -> uuid.UUID: ...
    @property
    def agent_name(self) -> str | None: ...
    @property
    def user_id(self) -> uuid.UUID: ...
    @property
    def project_id(self) -> uuid.UUID | None: ...
    @property
    def task_id(self) -> uuid.UUID | None: ...
    @property
    def price(self) -> int: ...
    @property
    def fee(self) -> int: ...
    @property
    def refund(self) -> int: ...


async def export_page(
    session: AsyncSession,
    *,
    user_id: uuid.UUID | None,
    workspace_id: uuid.UUID,
    agent_id: uuid.UUID | None,
    statuses: Sequence[str],
    before_id: uuid.UUID | None,
    limit: int,
) -> Sequence[ExportedJob]:
    """A page of the job export: the listing's order and filters (``list_visible``), keyset by
    id, only the columns the export writes."""
    query = (
        select(
            Job.id,
            Job.created_at,
            Job.completed_at,
            Job.name,
            Job.status,
            Job.agent_id,
            Agent.name.label("agent_name"),
            Job.user_id,
            Job.project_id,
            Job.task_id,
            Job.price,
            Job.fee,
            Job.refund,
        )
        .outerjoin(Agent, Agent.id == Job.agent_id)
        .where(Job.workspace_id == workspace_id)
    )
    if user_id is not None:
        query = query.where(Job.user_id == user_id)
    if agent_id is not None:
        query = query.where(Job.agent_id == agent_id)
    if statuses:
        query = query.where(Job.status.in_(list(statuses)))
    if before_id is not None:
        query = query.where(Job.id < before_id)
    rows = (await session.execute(query.order_by(Job.id.desc()).limit(limit))).all()
    return cast(Sequence[ExportedJob], rows)
