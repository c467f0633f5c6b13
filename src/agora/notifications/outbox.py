"""The notification outbox: one row per delivery, written in the job's transaction."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession

from agora.models import Job


async def job_status_changed(
    session: AsyncSession, job: Job, from_status: str | None, to_status: str
) -> None:
    """Placeholder until notifications land: record nothing."""
    return None
