"""Wake-ups for the dispatcher when a job becomes ready (created, or input answered).

Call ``job_ready(session)`` inside the transaction that made the job ready: the wake-up fires only
after that transaction commits (in-process signal; NOTIFY on PostgreSQL for other processes).
"""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession


def job_ready(session: AsyncSession) -> None:
    """Placeholder until the dispatcher lands: workers still find the job by polling."""
    return None
