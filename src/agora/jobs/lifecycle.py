"""The one module that changes a job's status (DESIGN §3 "Jobs").

    PENDING → RUNNING → (INPUT_REQUIRED ⇄ RUNNING) → COMPLETED | FAILED | CANCELLED

Every change is a compare-and-set on the current status (a racing dispatcher and a cancel cannot
both win), writes a JobEvent, enqueues the owner's notification, and on a final status settles the
credits through the ledger (capture on COMPLETED, full refund on FAILED or CANCELLED).
The caller owns the transaction.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from agora.credits import ledger
from agora.jobs import repository as repo
from agora.jobs import signals
from agora.kit.db import on_commit
from agora.kit.metrics import JOB_TRANSITIONS
from agora.kit.timeutil import utcnow
from agora.models import Job
from agora.models.rows import JobColumns
from agora.models.statuses import JobStatus, JobType
from agora.notifications import outbox

PENDING, RUNNING, INPUT_REQUIRED = JobStatus.PENDING, JobStatus.RUNNING, JobStatus.INPUT_REQUIRED
COMPLETED, FAILED, CANCELLED = JobStatus.COMPLETED, JobStatus.FAILED, JobStatus.CANCELLED
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
    job: JobColumns,
    event_type: str,
    *,
    from_status: str | None = None,
    to_status: str | None = None,
    detail: dict[str, Any] | None = None,
) -> None:
    await repo.add_event(
        session,
        job_id=job.id,
        type=event_type,
        from_status=from_status,
        to_status=to_status,
        detail=detail or {},
    )
    await signals.job_event(session, str(job.id))  # the job's live streams read it after commit


def parked_cancellation(job: Job) -> dict[str, Any]:
    """The columns that cancel a job parked while paid through a payment node (no worker holds
    it): the dispatcher gets the funds back (refund, not settlement)."""
    return {
        "settle": False,
        "payment": {**(job.payment or {}), "autoRefund": True},
        "dispatch_state": "queued",
        "next_attempt_at": utcnow(),
        "attempts": 0,
    }


async def transition(
    session: AsyncSession,
    job: Job,
    to_status: str,
    *,
    detail: dict[str, Any] | None = None,
    settle: bool = True,
    terms: ledger.PayoutTerms | None = None,
    **fields: Any,
) -> bool:
    """Move ``job`` to ``to_status`` if it is still in the status we loaded it with.

    ``fields`` are other Job columns to set in the same UPDATE (result, agent_job_status, …).
    Returns False when another writer changed the status first (nothing is written then).
    ``settle=False`` (jobs paid through a payment node) ends the job without settling its
    credits: ``settle_payment`` does that when the node says who got the funds. ``terms``: the
    operator's payout terms, needed by a transition that captures a credit-priced job (the
    seller's earnings are written with the capture).
    """
    from_status = job.status
    if to_status not in ALLOWED.get(from_status, frozenset()):
        raise InvalidTransition(f"job {job.id}: {from_status} → {to_status} is not allowed")
    now = utcnow()
    values: dict[str, Any] = {"status": to_status, "updated_at": now, **fields}
    if to_status == RUNNING and job.started_at is None:
        values["started_at"] = now
    if to_status in FINAL_STATUSES and not settle:
        values.update(completed_at=now, input_request=None)
    elif to_status in FINAL_STATUSES:
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
        if job.job_type != JobType.FREE and job.on_chain_status is not None:  # credits backend
            values["on_chain_status"] = (
                FUNDS_WITHDRAWN if to_status == COMPLETED else REFUND_WITHDRAWN
            )
    if not await repo.compare_and_set_status(session, job.id, from_status, values):
        return False
    for key, value in values.items():
        setattr(job, key, value)
    on_commit(session, JOB_TRANSITIONS.labels(to_status).inc)  # count what really happened
    if to_status == COMPLETED:  # the popularity sort's counter (docs/agents.md, "Sorting")
        await repo.count_completion(session, job.agent_id, now.date())
    if to_status in FINAL_STATUSES and settle:
        await _settle_credits(session, job, terms)
    await record_event(
        session, job, "status_changed", from_status=from_status, to_status=to_status, detail=detail
    )
    await outbox.job_status_changed(session, job, from_status, to_status)
    await session.flush()
    return True


async def _settle_credits(
    session: AsyncSession, job: Job, terms: ledger.PayoutTerms | None = None
) -> None:
    """The job's hold settled by the ledger: its ``refund`` back, the rest kept (FREE jobs held
    nothing). A credit-priced job's capture also credits the seller's earnings (a job paid on a
    payment node is paid by the network: no earnings)."""
    if not job.price:
        return
    await ledger.settle(
        session,
        workspace_id=job.workspace_id,
        job_id=job.id,
        held=job.price,
        refund=job.refund,
        user_id=job.user_id,
    )
    captured = job.price - job.refund
    if captured > 0 and job.payment_backend is None:
        if terms is None:
            raise RuntimeError(f"job {job.id}: a capture needs the payout terms")
        await ledger.earn(
            session,
            job_id=job.id,
            agent_id=job.agent_id,
            captured=captured,
            fee=job.fee,
            terms=terms,
            now=utcnow(),
        )


async def refund_completed(session: AsyncSession, job: Job, *, reason: str) -> int | None:
    """The operator refunds a completed credit-priced job: the buyer's credits back and the
    seller's earning reversed, in one transaction, once (a compare-and-set on the job's
    ``refund``). The workspace's new balance, or None when the job was not a captured credit
    job or was refunded already."""
    if job.payment_backend is not None or job.status != COMPLETED or not job.price:
        return None
    if not await repo.refund_captured_once(session, job.id, job.price, job.fee):
        return None
    job.refund, job.refund_fee = job.price, job.fee
    balance = await ledger.refund_captured(
        session,
        workspace_id=job.workspace_id,
        job_id=job.id,
        amount=job.price,
        user_id=job.user_id,
        memo=f"refunded by the operator: {reason}",
        now=utcnow(),
    )
    await record_event(session, job, "refunded", detail={"reason": reason[:500]})
    await outbox.job_refunded(session, job)
    await session.flush()
    return balance


async def settle_payment(
    session: AsyncSession,
    job: Job,
    *,
    refund: bool,
    detail: dict[str, Any],
    captured: int | None = None,
    **fields: Any,
) -> bool:
    """Settle a payment-node job's held credits once: capture (the seller was paid) or refund
    (the buyer was). A compare-and-set on ``settled``: a second call does nothing.
    ``captured``: what a capture keeps when less than the hold (a Dynamic-priced job holds the
    buyer's ceiling and costs what the seller signed); the rest goes back."""
    keep = 0 if refund else job.price if captured is None else max(0, min(captured, job.price))
    values: dict[str, Any] = {
        "settled": True,
        "refund": job.price - keep,
        "refund_fee": job.fee if refund else 0,
        "dispatch_state": "done",
        "lease_owner": None,
        "lease_expires_at": None,
        "next_attempt_at": None,
        "updated_at": utcnow(),
        **fields,
    }
    if not await repo.settle_once(session, job.id, values):
        return False
    for key, value in values.items():
        setattr(job, key, value)
    await _settle_credits(session, job)
    await record_event(session, job, "payment_settled", detail=detail)
    if refund:  # the owner hears of a refund (a dispute or a failure settled on chain)
        await outbox.job_refunded(session, job)
    await session.flush()
    return True
