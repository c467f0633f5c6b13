"""Wake-ups for the dispatcher when a job becomes ready (created, answered, retried).

Call ``await job_ready(session)`` inside the transaction that made the job ready. After that
transaction commits, every dispatcher in this process is woken at once (``kit.background``); on
PostgreSQL the transaction also sends ``NOTIFY agora_jobs``, which PostgreSQL delivers to the
listening workers of other processes only if the transaction commits. Nothing fires on rollback.
The dispatcher subscribes to ``JOB_READY``; jobs never import dispatch.
"""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession

from agora.kit import background

JOB_READY = "agora_jobs"  # the wake-up topic and the PostgreSQL NOTIFY channel


async def job_ready(session: AsyncSession) -> None:
    """Wake the dispatchers once this transaction commits (once per transaction)."""
    await background.signal(session, JOB_READY, across_processes=True)


# A job event was recorded: the wake-up topic (keyed by the job id) of the job streams and, on
# PostgreSQL, the NOTIFY channel (payload: the job id) their per-process listener LISTENs on.
JOB_EVENTS = "agora_job_events"


async def job_event(session: AsyncSession, job_id: str) -> None:
    """Wake the streams of this job (``GET /v1/jobs/{id}/stream``) once this transaction
    commits: on PostgreSQL by ``NOTIFY agora_job_events, '<job id>'`` (every process's listener,
    this one's included, delivers it); on SQLite in-process (docs/web.md)."""
    await background.signal(session, JOB_EVENTS, key=job_id, listened=True)
