"""All SQL of the payments domain."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from sqlalchemy import case, func, select, update
from sqlalchemy.engine import CursorResult
from sqlalchemy.ext.asyncio import AsyncSession

from agora.models import Job, JobEvent
from agora.models.statuses import DispatchState


def _due_now_if_queued(now: datetime) -> Any:
    """A queued job's next attempt moves to ``now``; a leased one keeps its own."""
    return case((Job.dispatch_state == DispatchState.QUEUED, now), else_=Job.next_attempt_at)


async def mark_refund_requested(
    session: AsyncSession, job_id: uuid.UUID, status: str, now: datetime
) -> bool:
    """Record the buyer's refund request once (compare-and-set) and make a queued job due now."""
    result = await session.execute(
        update(Job)
        .where(
            Job.id == job_id,
            Job.status == status,
            Job.settled.is_(False),
            Job.refund_requested_at.is_(None),
        )
        .values(
            refund_requested_at=now,
            updated_at=now,
            next_attempt_at=_due_now_if_queued(now),
        )
        .execution_options(synchronize_session=False)
    )
    return isinstance(result, CursorResult) and result.rowcount == 1


async def unsettled_masumi_jobs(
    session: AsyncSession, *, limit: int
) -> list[tuple[Job, datetime | None]]:
    """Jobs bought on a payment node whose credits are not settled yet, oldest first, each with
    the time of its last ``payment_state`` event (None: its state never changed)."""
    last_state = (
        select(JobEvent.job_id, func.max(JobEvent.created_at).label("at"))
        .where(JobEvent.type == "payment_state")
        .group_by(JobEvent.job_id)
        .subquery()
    )
    rows = await session.execute(
        select(Job, last_state.c.at)
        .outerjoin(last_state, last_state.c.job_id == Job.id)
        .where(Job.payment_backend == "masumi", Job.settled.is_(False))
        .order_by(Job.created_at, Job.id)
        .limit(limit)
    )
    return [(job, at) for job, at in rows.all()]


async def masumi_job_for_update(session: AsyncSession, job_id: uuid.UUID) -> Job | None:
    return (
        await session.scalars(
            select(Job)
            .where(Job.id == job_id, Job.payment_backend == "masumi", Job.settled.is_(False))
            .with_for_update()
        )
    ).first()


async def ask_refund_again(
    session: AsyncSession, job_id: uuid.UUID, payment: dict[str, Any], now: datetime
) -> bool:
    """A stuck refund asked again: the payment without its ``refundStuck`` mark, a refund
    request, and a queued job due now (compare-and-set: not settled)."""
    result = await session.execute(
        update(Job)
        .where(Job.id == job_id, Job.settled.is_(False))
        .values(
            payment=payment,
            refund_requested_at=now,
            attempts=0,
            updated_at=now,
            next_attempt_at=_due_now_if_queued(now),
        )
        .execution_options(synchronize_session=False)
    )
    return isinstance(result, CursorResult) and result.rowcount == 1
