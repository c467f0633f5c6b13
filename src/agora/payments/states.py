"""What the payment node's states mean to Agora (docs/payments.md; reference/mip003.md "Payment
states"): the on-chain states of a purchase, which of them refund the buyer, which allow a refund
request, and what a buyer sees of a refund in the job's events."""

from __future__ import annotations

import time

MASUMI = "masumi"  # jobs.payment_backend of a job bought on a payment node

# On-chain states of the node (reference/mip003.md "Payment states")
FUNDS_LOCKED, RESULT_SUBMITTED = "FundsLocked", "ResultSubmitted"
REFUND_REQUESTED, DISPUTED, REFUND_AUTHORIZED = "RefundRequested", "Disputed", "RefundAuthorized"
WITHDRAWN, REFUND_WITHDRAWN = "Withdrawn", "RefundWithdrawn"
DISPUTED_WITHDRAWN, FUNDS_OR_DATUM_INVALID = "DisputedWithdrawn", "FundsOrDatumInvalid"
REFUNDED_STATES = frozenset({REFUND_WITHDRAWN, DISPUTED_WITHDRAWN, FUNDS_OR_DATUM_INVALID})
REFUNDABLE_STATES = frozenset({FUNDS_LOCKED, RESULT_SUBMITTED})
PENDING_REFUND_STATES = frozenset({REFUND_REQUESTED, DISPUTED, REFUND_AUTHORIZED})
# What a buyer sees of a refund in the job's events
REFUND_EVENTS = {
    REFUND_REQUESTED: "refund_pending",
    DISPUTED: "dispute_pending",
    REFUND_AUTHORIZED: "refund_authorized",
    REFUND_WITHDRAWN: "refund_resolved",
    DISPUTED_WITHDRAWN: "dispute_resolved",
}
# ``jobs.payment`` key: the node was asked for the buyer's refund (the request is done with)
REFUND_ASKED = "refundAsked"
# The node's NextAction when it stopped on a purchase and waits for its operator
MANUAL_ACTION = "WaitingForManualAction"


def now_ms() -> int:
    return int(time.time() * 1000)
