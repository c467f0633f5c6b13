"""All SQL of schedules and their runs.

A schedule is claimable when it is active, due (``next_run_at <= now``) and not leased by a live
worker. A claim is one conditional UPDATE (``FOR UPDATE SKIP LOCKED`` on PostgreSQL, the write
transaction serialises on SQLite), as the dispatcher claims jobs (dispatch/repository.py).
"""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from sqlalchemy import and_, func, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from agora.kit.leases import claim_due
from agora.models import Job, Schedule, ScheduleRun, User, Workspace
from agora.models.statuses import ScheduleRunStatus, ScheduleState

ACTIVE, PAUSED = ScheduleState.ACTIVE, ScheduleState.PAUSED
CREATED = ScheduleRunStatus.CREATED
# The runs whose job held (and may have spent) credits: what a monthly budget counts.
SPENDING = (
    CREATED,
    ScheduleRunStatus.COMPLETED,
    ScheduleRunStatus.FAILED,
    ScheduleRunStatus.CANCELLED,
)


async def add(session: AsyncSession, row: Schedule | ScheduleRun) -> None:
    session.add(row)
    await session.flush()


async def owned(
    session: AsyncSession, schedule_id: uuid.UUID, user_id: uuid.UUID, workspace_id: uuid.UUID
) -> Schedule | None:
    schedule: Schedule | None = await session.scalar(
        select(Schedule).where(
            Schedule.id == schedule_id,
            Schedule.user_id == user_id,
            Schedule.workspace_id == workspace_id,
        )
    )
    return schedule


async def list_owned(
    session: AsyncSession,
    user_id: uuid.UUID,
    workspace_id: uuid.UUID,
    *,
    before_id: uuid.UUID | None,
    limit: int,
) -> list[Schedule]:
    query = select(Schedule).where(
        Schedule.user_id == user_id, Schedule.workspace_id == workspace_id
    )
    if before_id is not None:
        query = query.where(Schedule.id < before_id)
    return list(await session.scalars(query.order_by(Schedule.id.desc()).limit(limit)))


async def runs_of(
    session: AsyncSession, schedule_id: uuid.UUID, *, before: datetime | None, limit: int
) -> list[ScheduleRun]:
    query = select(ScheduleRun).where(ScheduleRun.schedule_id == schedule_id)
    if before is not None:
        query = query.where(ScheduleRun.occurrence_at < before)
    return list(
        await session.scalars(query.order_by(ScheduleRun.occurrence_at.desc()).limit(limit))
    )


# ---- the scheduler -----------------------------------------------------------------------


def _claimable(now: datetime) -> Any:
    return and_(
        Schedule.state == ACTIVE,
        Schedule.next_run_at <= now,
        or_(Schedule.lease_expires_at.is_(None), Schedule.lease_expires_at < now),
    )


async def claim(
    session: AsyncSession, *, owner: str, now: datetime, lease_until: datetime, limit: int
) -> list[uuid.UUID]:
    lease = {"lease_owner": owner, "lease_expires_at": lease_until}
    return await claim_due(
        session,
        Schedule,
        due=_claimable(now),
        order_by=Schedule.next_run_at,
        limit=limit,
        values={**lease, "updated_at": Schedule.updated_at},
    )


async def any_claimable(session: AsyncSession, now: datetime) -> bool:
    found = await session.scalar(select(Schedule.id).where(_claimable(now)).limit(1))
    return found is not None


async def leased(
    session: AsyncSession, schedule_id: uuid.UUID, owner: str, now: datetime
) -> Schedule | None:
    """The schedule if ``owner`` still holds its live lease (locked for the transaction)."""
    schedule: Schedule | None = await session.scalar(
        select(Schedule)
        .where(
            Schedule.id == schedule_id,
            Schedule.lease_owner == owner,
            Schedule.lease_expires_at >= now,
        )
        .with_for_update()
        .execution_options(populate_existing=True)
    )
    return schedule


async def by_id(session: AsyncSession, schedule_id: uuid.UUID) -> Schedule | None:
    return await session.get(Schedule, schedule_id, populate_existing=True)


async def run_exists(session: AsyncSession, schedule_id: uuid.UUID, occurrence: datetime) -> bool:
    found = await session.scalar(
        select(ScheduleRun.id).where(
            ScheduleRun.schedule_id == schedule_id, ScheduleRun.occurrence_at == occurrence
        )
    )
    return found is not None


async def spent(session: AsyncSession, schedule_id: uuid.UUID, period: str) -> int:
    total = await session.scalar(
        select(func.coalesce(func.sum(ScheduleRun.credits), 0)).where(
            ScheduleRun.schedule_id == schedule_id,
            ScheduleRun.period == period,
            ScheduleRun.status.in_(SPENDING),
        )
    )
    return int(total or 0)


async def next_due(session: AsyncSession) -> datetime | None:
    """When the next active schedule is due (or its lease expires)."""
    due: datetime | None = await session.scalar(
        select(func.min(Schedule.next_run_at)).where(Schedule.state == ACTIVE)
    )
    return due


async def owner_of(
    session: AsyncSession, user_id: uuid.UUID, workspace_id: uuid.UUID
) -> tuple[User, Workspace] | None:
    user = await session.get(User, user_id)
    workspace = await session.get(Workspace, workspace_id)
    return (user, workspace) if user is not None and workspace is not None else None


async def finished_runs(
    session: AsyncSession, final_statuses: tuple[str, ...], limit: int
) -> list[tuple[uuid.UUID, uuid.UUID, str]]:
    """Runs still ``created`` whose job has ended: (run id, schedule id, job status), oldest
    occurrence first."""
    rows = await session.execute(
        select(ScheduleRun.id, ScheduleRun.schedule_id, Job.status)
        .join(Job, Job.id == ScheduleRun.job_id)
        .where(ScheduleRun.status == CREATED, Job.status.in_(final_statuses))
        .order_by(ScheduleRun.occurrence_at)
        .limit(limit)
    )
    return [(r[0], r[1], r[2]) for r in rows]


async def settle_run(session: AsyncSession, run_id: uuid.UUID, status: str, now: datetime) -> bool:
    settled = await session.scalar(
        update(ScheduleRun)
        .where(ScheduleRun.id == run_id, ScheduleRun.status == CREATED)
        .values(status=status, updated_at=now)
        .returning(ScheduleRun.id)
        .execution_options(synchronize_session=False)
    )
    return settled is not None


async def add_failure(session: AsyncSession, schedule_id: uuid.UUID) -> int:
    """One more failed run in a row; returns the new count."""
    result = await session.execute(
        update(Schedule)
        .where(Schedule.id == schedule_id)
        .values(consecutive_failures=Schedule.consecutive_failures + 1)
        .returning(Schedule.consecutive_failures)
        .execution_options(synchronize_session=False)
    )
    return int(result.scalar_one())


async def reset_failures(session: AsyncSession, schedule_id: uuid.UUID) -> None:
    await session.execute(
        update(Schedule)
        .where(Schedule.id == schedule_id)
        .values(consecutive_failures=0)
        .execution_options(synchronize_session=False)
    )


async def pause_if_active(
    session: AsyncSession, schedule_id: uuid.UUID, reason: str, now: datetime
) -> Schedule | None:
    """Pause an active schedule (one writer wins); the schedule when this call paused it."""
    result = await session.execute(
        update(Schedule)
        .where(Schedule.id == schedule_id, Schedule.state == ACTIVE)
        .values(state=PAUSED, state_reason=reason, updated_at=now)
        .returning(Schedule.id)
        .execution_options(synchronize_session=False)
    )
    if result.scalar_one_or_none() is None:
        return None
    schedule: Schedule | None = await session.get(Schedule, schedule_id, populate_existing=True)
    return schedule
