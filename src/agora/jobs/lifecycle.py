"""The one module that changes a job's status (DESIGN §3 "Jobs").

    PENDING → RUNNING → (INPUT_REQUIRED ⇄ RUNNING) → COMPLETED | FAILED | CANCELLED

Every change is a compare-and-set on the current status (a racing dispatcher and a cancel cannot
both win), writes a JobEvent, enqueues the owner's notification, and on a final status settles the
credits through the ledger (capture on COMPLETED, full refund on FAILED or CANCELLED).
The caller owns the transaction.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import update
from sqlalchemy.ext.asyncio import AsyncSession

from agora.credits import ledger
from agora.kit.db import on_commit
from agora.kit.metrics import JOB_TRANSITIONS
from agora.kit.timeutil import utcnow
from agora.models import Job, JobEvent
from agora.notifications import outbox

PENDING, RUNNING, INPUT_REQUIRED = "PENDING", "RUNNING", "INPUT_REQUIRED"
COMPLETED, FAILED, CANCELLED = "COMPLETED", "FAILED", "CANCELLED"
FINAL_STATUSES = frozenset({COMPLETED, FAILED, CANCELLED})
ALL_STATUSES = (PENDING, RUNNING, INPUT_REQUIRED, COMPLETED, FAILED, CANCELLED)

ALLOWED: dict[str, frozenset[str]] = {
    PENDING: frozenset({RUNNING, INPUT_REQUIRED, COMPLETED, FAILED, CANCELLED}),
    RUNNING: frozenset({INPUT_REQUIRED, COMPLETED, FAILED, CANCELLED}),
    INPUT_REQUIRED: frozenset({RUNNING, COMPLETED, FAILED, CANCELLED}),
}

# onChainStatus vocabulary for paid jobs (null for FREE jobs) until a blockchain backend exists.
FUNDS_LOCKED = "FUNDS_LOCKED"
FUNDS_WITHDRAWN = "FUNDS_WITHDRAWN"
REFUND_WITHDRAWN = "REFUND_WITHDRAWN"


class InvalidTransition(Exception):
    pass


async def record_event(
    session: AsyncSession,
    job: Job,
    event_type: str,
    *,
    from_status: str | None = None,
    to_status: str | None = None,
    detail: dict[str, Any] | None = None,
) -> None:
    session.add(
        JobEvent(
            job_id=job.id,
            type=event_type,
            from_status=from_status,
            to_status=to_status,
            detail=detail or {},
        )
    )


async def transition(
    session: AsyncSession,
    job: Job,
    to_status: str,
    *,
    detail: dict[str, Any] | None = None,
    **fields: Any,
) -> bool:
    """Move ``job`` to ``to_status`` if it is still in the status we loaded it with.

    ``fields`` are other Job columns to set in the same UPDATE (result, agent_job_status, …).
    Returns False when another writer changed the status first (nothing is written then).
    """
    from_status = job.status
    if to_status not in ALLOWED.get(from_status, frozenset()):
        raise InvalidTransition(f"job {job.id}: {from_status} → {to_status} is not allowed")
    now = utcnow()
    values: dict[str, Any] = {"status": to_status, "updated_at": now, **fields}
    if to_status == RUNNING and job.started_at is None:
        values["started_at"] = now
    if to_status in FINAL_STATUSES:
        refund = 0 if to_status == COMPLETED else job.price
        values.update(
            completed_at=now,
            settled=True,
            refund=refund,
            refund_fee=0 if to_status == COMPLETED else job.fee,
            dispatch_state="done",
            lease_owner=None,
            lease_expires_at=None,
            next_attempt_at=None,
            input_request=None,
        )
        if job.job_type != "FREE":
            values["on_chain_status"] = (
                FUNDS_WITHDRAWN if to_status == COMPLETED else REFUND_WITHDRAWN
            )
    result = await session.execute(
        update(Job)
        .where(Job.id == job.id, Job.status == from_status)
        .values(**values)
        .execution_options(synchronize_session=False)
    )
    if result.rowcount != 1:  # type: ignore[attr-defined]
        return False
    for key, value in values.items():
        setattr(job, key, value)
    on_commit(session, JOB_TRANSITIONS.labels(to_status).inc)  # count what really happened
    if to_status in FINAL_STATUSES and job.price:  # FREE jobs held nothing
        await ledger.settle(
            session,
            workspace_id=job.workspace_id,
            job_id=job.id,
            held=job.price,
            refund=job.refund,
            user_id=job.user_id,
        )
    await record_event(
        session, job, "status_changed", from_status=from_status, to_status=to_status, detail=detail
    )
    await outbox.job_status_changed(session, job, from_status, to_status)
    await session.flush()
    return True
