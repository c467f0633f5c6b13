"""All SQL of the payments domain."""

from __future__ import annotations

import uuid
from datetime import datetime

from sqlalchemy import case, update
from sqlalchemy.ext.asyncio import AsyncSession

from agora.models import Job


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
            next_attempt_at=case((Job.dispatch_state == "queued", now), else_=Job.next_attempt_at),
        )
        .execution_options(synchronize_session=False)
    )
    return bool(result.rowcount == 1)  # type: ignore[attr-defined]
