"""Buyer refunds of jobs paid through a payment node (docs/payments.md, "Refunds").

The window is the contract's: a job with a result on chain until ``unlockTime`` (a dispute); a
job without one while its funds are locked (a refund, withdrawable after ``submitResultTime``).
Times are judged on the node's clock as last seen by the dispatcher (``payment.skewMs``). The
request is recorded here; the dispatcher asks the node after commit (no transaction is ever open
across a call to the node).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy.ext.asyncio import AsyncSession

from agora.auth.principal import Permission, Principal
from agora.jobs import lifecycle, signals
from agora.jobs import service as jobs_service
from agora.kit.errors import Conflict
from agora.kit.timeutil import isoformat, utcnow
from agora.models.rows import JobColumns
from agora.payments import repository as repo
from agora.payments.states import (
    FUNDS_LOCKED,
    MASUMI,
    PENDING_REFUND_STATES,
    REFUNDABLE_STATES,
    now_ms,
)
from agora.settings import Settings


def _iso_ms(value: int) -> str:
    return isoformat(datetime.fromtimestamp(value / 1000, UTC)) or str(value)


def refusal(job: JobColumns) -> str | None:
    """Why a refund of ``job`` cannot be asked now (the 409's reason), or None when it can: the
    one rule set of ``request_refund`` and of the web page's refund button."""
    payment = job.payment or {}
    if job.payment_backend != MASUMI or not payment.get("purchased"):
        return (
            f"Job {job.id} was not bought on a payment node; its credits are settled by Agora "
            "(refunded when it fails or is cancelled)"
        )
    if job.status not in (lifecycle.COMPLETED, lifecycle.FAILED):
        return f"Job {job.id} is {job.status}: a refund can be asked once it has ended"
    if job.settled:
        return (
            f"Job {job.id} is already settled on chain ({job.on_chain_status}); "
            "there is nothing left to refund"
        )
    state = job.on_chain_status
    if job.refund_requested_at is not None or state in PENDING_REFUND_STATES:
        return f"Job {job.id} already has a refund pending ({state})"
    if state not in REFUNDABLE_STATES:
        return (
            f"Job {job.id}'s purchase is {state}: a refund can be asked only while the funds "
            "are locked or the result is submitted"
        )
    node_now = now_ms() + int(payment.get("skewMs") or 0)
    unlock = int(payment["unlockTime"])
    if state != FUNDS_LOCKED and node_now >= unlock:
        return (
            f"Job {job.id}: the refund window closed at unlockTime {_iso_ms(unlock)}; "
            "the funds now belong to the seller"
        )
    return None


@dataclass(frozen=True)
class RefundOffer:
    """What the job page says about a refund of a job bought on a payment node."""

    allowed: bool
    kind: str  # "refund" (no result on chain) or "dispute" (a result on chain)
    window: str  # the contract's window, in words
    reason: str | None  # why it cannot be asked now (``refusal``), when not allowed


def refund_offer(job: JobColumns) -> RefundOffer | None:
    """None for a job Agora settles itself (credits: refunded when it fails or is cancelled);
    otherwise whether the buyer may ask for a refund now, the window and the reason."""
    payment = job.payment or {}
    if job.payment_backend != MASUMI or not payment.get("purchased"):
        return None
    state = job.on_chain_status
    unlock = _iso_ms(int(payment["unlockTime"])) if payment.get("unlockTime") else "?"
    submit = _iso_ms(int(payment["submitResultTime"])) if payment.get("submitResultTime") else "?"
    if state == FUNDS_LOCKED:
        kind = "refund"
        window = (
            "No result was submitted on chain, so you can ask for a refund while the funds are "
            f"locked; the credits come back once the seller agrees, or after {submit} "
            "(submitResultTime) if no result arrives."
        )
    else:
        kind = "dispute"
        window = (
            f"The agent submitted its result on chain: until {unlock} (unlockTime) you can "
            "dispute it; the network then decides, and Agora refunds your credits in full if "
            "the funds come back."
        )
    reason = refusal(job)
    return RefundOffer(allowed=reason is None, kind=kind, window=window, reason=reason)


async def request_refund(
    session: AsyncSession, principal: Principal, job_id: str, *, settings: Settings
) -> jobs_service.ShownJob:
    principal.require(Permission.JOBS_WRITE)
    job = await jobs_service.visible_job(session, principal, job_id)
    problem = refusal(job)
    if problem is not None:
        raise Conflict(problem)
    state = job.on_chain_status
    now = utcnow()
    if not await repo.mark_refund_requested(session, job.id, job.status, now):
        raise Conflict(f"Job {job.id} changed while the refund was asked; read it again")
    await lifecycle.record_event(
        session,
        job,
        "refund_requested",
        detail={"onChainStatus": state, "kind": "dispute" if state != FUNDS_LOCKED else "refund"},
    )
    await signals.job_ready(session)
    await session.refresh(job)
    return await jobs_service.shown_one(session, job, settings)
