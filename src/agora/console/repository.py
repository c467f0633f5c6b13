"""All SQL of the operator's console (users, their keys and jobs, the dashboard's counts)."""

from __future__ import annotations

import contextlib
import uuid
from datetime import datetime
from typing import Any, TypeVar

from sqlalchemy import case, func, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from agora.models import (
    Agent,
    ApiKey,
    BrowserSession,
    CreditPurchase,
    Job,
    JobEvent,
    LedgerEntry,
    NotificationDelivery,
    Organization,
    OrganizationMember,
    RegistryQuarantine,
    SpendingCap,
    StoredFile,
    User,
    Workspace,
)
from agora.models.statuses import DeliveryState, JobStatus, ReviewState

FINAL_JOB_STATUSES = (JobStatus.COMPLETED, JobStatus.FAILED, JobStatus.CANCELLED)


def _pattern(q: str) -> str:
    """A LIKE pattern for a part of a text (case-insensitive; wildcards dropped)."""
    return f"%{q.lower().replace('%', '').replace('_', '')}%"


_Found = TypeVar("_Found", User, Organization)


async def _search(
    session: AsyncSession, model: type[_Found], texts: list[Any], q: str, limit: int, offset: int
) -> tuple[list[_Found], int]:
    """Rows of ``model`` by exact id, or a part of one of its ``texts`` columns
    (case-insensitive); newest first, with how many match."""
    conditions: list[Any] = []
    q = q.strip()
    if q:
        pattern = _pattern(q)
        matches: list[Any] = [func.lower(column).like(pattern) for column in texts]
        with contextlib.suppress(ValueError):
            matches.append(model.id == uuid.UUID(q))
        conditions.append(or_(*matches))
    rows = await session.scalars(
        select(model)
        .where(*conditions)
        .order_by(model.created_at.desc(), model.id)
        .limit(limit)
        .offset(offset)
    )
    total = await session.scalar(select(func.count()).select_from(model).where(*conditions))
    return list(rows), int(total or 0)


async def search_users(
    session: AsyncSession, q: str, *, limit: int, offset: int
) -> tuple[list[User], int]:
    """By exact id, or a part of the email or name; newest first."""
    return await _search(session, User, [User.email, User.name], q, limit, offset)


async def user_for_update(session: AsyncSession, user_id: uuid.UUID) -> User | None:
    return await session.scalar(select(User).where(User.id == user_id).with_for_update())


async def workspaces_of(session: AsyncSession, user_id: uuid.UUID) -> list[Workspace]:
    """The personal workspace and the organizations' the user belongs to."""
    member_orgs = select(OrganizationMember.organization_id).where(
        OrganizationMember.user_id == user_id
    )
    rows = await session.scalars(
        select(Workspace)
        .where(
            or_(
                Workspace.owner_user_id == user_id,
                Workspace.organization_id.in_(member_orgs),
            )
        )
        .order_by(Workspace.kind.desc(), Workspace.created_at)
    )
    return list(rows)


async def keys_of(session: AsyncSession, user_id: uuid.UUID) -> list[ApiKey]:
    rows = await session.scalars(
        select(ApiKey).where(ApiKey.user_id == user_id).order_by(ApiKey.created_at.desc())
    )
    return list(rows)


async def sessions_of(session: AsyncSession, user_id: uuid.UUID) -> list[BrowserSession]:
    rows = await session.scalars(
        select(BrowserSession)
        .where(BrowserSession.user_id == user_id)
        .order_by(BrowserSession.created_at.desc())
        .limit(50)
    )
    return list(rows)


async def revoke_all_keys(session: AsyncSession, user_id: uuid.UUID, now: datetime) -> int:
    result = await session.execute(
        update(ApiKey)
        .where(ApiKey.user_id == user_id, ApiKey.revoked_at.is_(None))
        .values(revoked_at=now)
        .execution_options(synchronize_session=False)
    )
    return int(getattr(result, "rowcount", 0) or 0)


async def jobs_of(session: AsyncSession, user_id: uuid.UUID, limit: int = 50) -> list[Job]:
    """A user's latest jobs (any workspace)."""
    return await _latest_jobs(session, Job.user_id == user_id, limit)


async def _latest_jobs(session: AsyncSession, owner: Any, limit: int) -> list[Job]:
    rows = await session.scalars(
        select(Job).where(owner).order_by(Job.created_at.desc()).limit(limit)
    )
    return list(rows)


async def unfinished_jobs(
    session: AsyncSession,
    *,
    user_id: uuid.UUID | None = None,
    workspace_id: uuid.UUID | None = None,
) -> list[Job]:
    """A user's (any workspace) or a workspace's (any member) unfinished jobs, locked."""
    owner = Job.user_id == user_id if user_id is not None else Job.workspace_id == workspace_id
    rows = await session.scalars(
        select(Job)
        .where(owner, Job.status.not_in(FINAL_JOB_STATUSES))
        .order_by(Job.created_at)
        .with_for_update()
    )
    return list(rows)


async def ledger_of(
    session: AsyncSession, workspace_ids: list[uuid.UUID], limit: int = 50
) -> list[LedgerEntry]:
    if not workspace_ids:
        return []
    rows = await session.scalars(
        select(LedgerEntry)
        .where(LedgerEntry.workspace_id.in_(workspace_ids))
        .order_by(LedgerEntry.created_at.desc(), LedgerEntry.id.desc())
        .limit(limit)
    )
    return list(rows)


# ---- organizations ------------------------------------------------------------------------


async def search_organizations(
    session: AsyncSession, q: str, *, limit: int, offset: int
) -> tuple[list[Organization], int]:
    """By exact id, or a part of the name or slug; newest first."""
    return await _search(
        session, Organization, [Organization.name, Organization.slug], q, limit, offset
    )


async def organization(
    session: AsyncSession, org_id: uuid.UUID, *, for_update: bool = False
) -> Organization | None:
    query = select(Organization).where(Organization.id == org_id)
    return await session.scalar(query.with_for_update() if for_update else query)


async def members_of(
    session: AsyncSession, org_id: uuid.UUID
) -> list[tuple[OrganizationMember, User]]:
    rows = await session.execute(
        select(OrganizationMember, User)
        .join(User, User.id == OrganizationMember.user_id)
        .where(OrganizationMember.organization_id == org_id)
        .order_by(OrganizationMember.created_at, User.email)
        .limit(500)
    )
    return [(member, user) for member, user in rows.all()]


async def caps_of(session: AsyncSession, workspace_id: uuid.UUID) -> list[SpendingCap]:
    rows = await session.scalars(
        select(SpendingCap)
        .where(SpendingCap.workspace_id == workspace_id)
        .order_by(SpendingCap.created_at)
        .limit(500)
    )
    return list(rows)


async def jobs_in(session: AsyncSession, workspace_id: uuid.UUID, limit: int = 50) -> list[Job]:
    """A workspace's latest jobs (any member)."""
    return await _latest_jobs(session, Job.workspace_id == workspace_id, limit)


# ---- jobs ---------------------------------------------------------------------------------


async def search_jobs(
    session: AsyncSession,
    *,
    job_id: uuid.UUID | None,
    agent: str,
    status: str,
    workspace_id: uuid.UUID | None,
    limit: int,
    offset: int,
) -> tuple[list[tuple[Job, str]], int]:
    """Jobs of every workspace, each with its agent's name; newest first. ``agent``: the
    agent's id, its registry identifier or a part of its name."""
    conditions: list[Any] = []
    if job_id is not None:
        conditions.append(Job.id == job_id)
    if agent:
        by_agent: list[Any] = [
            Agent.agent_identifier == agent,
            func.lower(Agent.name).like(_pattern(agent)),
        ]
        with contextlib.suppress(ValueError):
            by_agent.append(Agent.id == uuid.UUID(agent))
        conditions.append(or_(*by_agent))
    if status:
        conditions.append(Job.status == status)
    if workspace_id is not None:
        conditions.append(Job.workspace_id == workspace_id)
    rows = await session.execute(
        select(Job, Agent.name)
        .join(Agent, Agent.id == Job.agent_id)
        .where(*conditions)
        .order_by(Job.created_at.desc(), Job.id)
        .limit(limit)
        .offset(offset)
    )
    total = await session.scalar(
        select(func.count())
        .select_from(Job)
        .join(Agent, Agent.id == Job.agent_id)
        .where(*conditions)
    )
    return [(job, str(name)) for job, name in rows.all()], int(total or 0)


async def job_with_agent(session: AsyncSession, job_id: uuid.UUID) -> tuple[Job, Agent] | None:
    row = (
        await session.execute(
            select(Job, Agent).join(Agent, Agent.id == Job.agent_id).where(Job.id == job_id)
        )
    ).first()
    return (row[0], row[1]) if row else None


async def _of_job(session: AsyncSession, model: Any, job_id: uuid.UUID, limit: int) -> list[Any]:
    """A job's rows of ``model`` (events, ledger entries, deliveries, files) in the order they
    were written, at most ``limit``."""
    rows = await session.scalars(
        select(model)
        .where(model.job_id == job_id)
        .order_by(model.created_at, model.id)
        .limit(limit)
    )
    return list(rows)


async def events_of(session: AsyncSession, job_id: uuid.UUID) -> list[JobEvent]:
    return await _of_job(session, JobEvent, job_id, 1000)


async def job_ledger(session: AsyncSession, job_id: uuid.UUID) -> list[LedgerEntry]:
    return await _of_job(session, LedgerEntry, job_id, 200)


async def job_deliveries(session: AsyncSession, job_id: uuid.UUID) -> list[NotificationDelivery]:
    return await _of_job(session, NotificationDelivery, job_id, 200)


async def job_files(session: AsyncSession, job_id: uuid.UUID) -> list[StoredFile]:
    return await _of_job(session, StoredFile, job_id, 200)


# ---- the dashboard ------------------------------------------------------------------------


async def jobs_per_status(session: AsyncSession, since: datetime) -> dict[str, int]:
    rows = await session.execute(
        select(Job.status, func.count()).where(Job.created_at >= since).group_by(Job.status)
    )
    return {str(status): int(count) for status, count in rows}


async def failures_per_agent(
    session: AsyncSession, since: datetime, limit: int = 20
) -> list[tuple[str, str, int, int]]:
    """(agent id, name, jobs, failed) of the agents with jobs since ``since``, most failed first."""
    failed = func.sum(case((Job.status == JobStatus.FAILED, 1), else_=0))
    rows = await session.execute(
        select(Agent.id, Agent.name, func.count(Job.id), failed)
        .join(Agent, Agent.id == Job.agent_id)
        .where(Job.created_at >= since)
        .group_by(Agent.id, Agent.name)
        .order_by(failed.desc(), func.count(Job.id).desc())
        .limit(limit)
    )
    return [(str(a), str(n), int(c), int(f or 0)) for a, n, c, f in rows]


async def oldest_waiting(session: AsyncSession, now: datetime) -> datetime | None:
    """When the longest-waiting dispatchable job became due (its dispatch lag's start)."""
    due = func.coalesce(Job.next_attempt_at, Job.created_at)
    found: datetime | None = await session.scalar(
        select(func.min(due)).where(
            Job.dispatch_state == "queued",
            Job.status.not_in(FINAL_JOB_STATUSES),
            Job.status != JobStatus.INPUT_REQUIRED,
            due <= now,
        )
    )
    return found


async def _count(session: AsyncSession, model: Any, *conditions: Any) -> int:
    return int(
        await session.scalar(select(func.count()).select_from(model).where(*conditions)) or 0
    )


async def count_purchases(session: AsyncSession, statuses: tuple[str, ...]) -> int:
    return await _count(session, CreditPurchase, CreditPurchase.status.in_(statuses))


async def count_refund_requests(session: AsyncSession) -> int:
    """Jobs paid through a payment node whose refund was asked for and is not settled yet."""
    return await _count(session, Job, Job.refund_requested_at.is_not(None), Job.settled.is_(False))


async def count_pending_reviews(session: AsyncSession) -> int:
    return await _count(session, Agent, Agent.review_state == ReviewState.PENDING)


async def count_quarantine(session: AsyncSession) -> int:
    return await _count(session, RegistryQuarantine, RegistryQuarantine.dismissed_at.is_(None))


async def count_failed_deliveries(session: AsyncSession, since: datetime) -> dict[str, int]:
    rows = await session.execute(
        select(NotificationDelivery.channel, func.count())
        .where(
            NotificationDelivery.state == DeliveryState.FAILED,
            NotificationDelivery.created_at >= since,
        )
        .group_by(NotificationDelivery.channel)
    )
    return {str(channel): int(count) for channel, count in rows}
