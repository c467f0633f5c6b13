"""When a buyer may ask for a refund of a job bought on a payment node (docs/payments.md,
"Refunds"): pure functions of the job's row, shared by the refund request
(``payments.service.request_refund``: its 409's reason) and the job page's refund card.

The window is the contract's: a job with a result on chain until ``unlockTime`` (a dispute); a
job without one while its funds are locked (a refund, withdrawable after ``submitResultTime``).
Times are judged on the node's clock as last seen by the dispatcher (``payment.skewMs``).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from datetime import UTC, datetime

from agora.jobs import lifecycle
from agora.kit.timeutil import isoformat
from agora.models.rows import JobColumns
from agora.models.statuses import OnChainState

MASUMI = "masumi"  # ``jobs.payment_backend`` of a job bought on a payment node
REFUNDABLE_STATES = frozenset({OnChainState.FUNDS_LOCKED, OnChainState.RESULT_SUBMITTED})
PENDING_REFUND_STATES = frozenset(
    {OnChainState.REFUND_REQUESTED, OnChainState.DISPUTED, OnChainState.REFUND_AUTHORIZED}
)


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
    if job.refund_requested_at is not None:
        # Never cleared once asked (payments/masumi.py): a second request would be a second
        # refund of the same purchase once the first is resolved.
        asked = isoformat(job.refund_requested_at)
        return (
            f"Job {job.id} already has a refund pending or resolved ({state}; asked at {asked}): "
            "a refund is asked once per job"
        )
    if state in PENDING_REFUND_STATES:
        return f"Job {job.id} already has a refund pending ({state})"
    if state not in REFUNDABLE_STATES:
        return (
            f"Job {job.id}'s purchase is {state}: a refund can be asked only while the funds "
            "are locked or the result is submitted"
        )
    node_now = int(time.time() * 1000) + int(payment.get("skewMs") or 0)
    unlock = int(payment["unlockTime"])
    if state != OnChainState.FUNDS_LOCKED and node_now >= unlock:
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
    if state == OnChainState.FUNDS_LOCKED:
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
