"""The local payment node's state: the chain's and the node's words (the real enums), the
escrow book's rows, the node's clock and configuration."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

MINUTE_MS = 60_000
HOUR_MS = 60 * MINUTE_MS
MAX_ESCROWS = 100_000
MAX_BODY_BYTES = 64 * 1024
NETWORKS = ("Preprod", "Mainnet")
V1, V2 = "Web3CardanoV1", "Web3CardanoV2"

# On-chain states (prisma/schema.prisma enum OnChainState)
FUNDS_LOCKED = "FundsLocked"
FUNDS_OR_DATUM_INVALID = "FundsOrDatumInvalid"
RESULT_SUBMITTED = "ResultSubmitted"
REFUND_REQUESTED = "RefundRequested"
DISPUTED = "Disputed"
REFUND_AUTHORIZED = "RefundAuthorized"
WITHDRAWN = "Withdrawn"
REFUND_WITHDRAWN = "RefundWithdrawn"
DISPUTED_WITHDRAWN = "DisputedWithdrawn"
FINAL_STATES = frozenset({WITHDRAWN, REFUND_WITHDRAWN, DISPUTED_WITHDRAWN, FUNDS_OR_DATUM_INVALID})

# NextAction values (prisma/schema.prisma enums PurchasingAction, PaymentAction)
NONE = "None"
WAITING_EXTERNAL = "WaitingForExternalAction"
WAITING_MANUAL = "WaitingForManualAction"
FUNDS_LOCKING_REQUESTED = "FundsLockingRequested"
SET_REFUND_REQUESTED = "SetRefundRequestedRequested"
UNSET_REFUND_REQUESTED = "UnSetRefundRequestedRequested"
SUBMIT_RESULT_REQUESTED = "SubmitResultRequested"
AUTHORIZE_REFUND_REQUESTED = "AuthorizeRefundRequested"

# The real messages
PURCHASE_EXISTS = "Purchase exists"
REFUND_INVALID = "Purchase not found or not in valid state"  # purchases/request-refund
PURCHASE_INVALID = "Purchase not found or in invalid state"  # purchases/cancel-refund-request
PAYMENT_INVALID = "Payment not found or in invalid state"  # payments/submit-result, …
CONCURRENT = {
    "/purchase/request-refund": "Purchase state changed concurrently; retry against the new state",
    "/purchase/cancel-refund-request": (
        "Purchase state changed concurrently; retry against the new state"
    ),
    "/payment/submit-result": "Payment state changed concurrently; retry against the new state",
    "/payment/authorize-refund": "Payment state changed concurrently; retry against the new state",
}
FORCED_404 = {
    "/purchase/request-refund": REFUND_INVALID,
    "/purchase/cancel-refund-request": PURCHASE_INVALID,
    "/payment/submit-result": PAYMENT_INVALID,
    "/payment/authorize-refund": PAYMENT_INVALID,
}


class NodeError(Exception):
    def __init__(self, status: int, message: str, extra: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.status, self.message, self.extra = status, message, extra or {}


class NodeClock:
    """Wall clock plus an offset that tests may move forward (never back)."""

    def __init__(self) -> None:
        self.offset_ms = 0

    def now_ms(self) -> int:
        return int(time.time() * 1000) + self.offset_ms


def iso(ms: int) -> str:
    """A JSON date as express writes one: ``2026-07-20T10:00:00.000Z``."""
    moment = datetime.fromtimestamp(ms / 1000, UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{ms % 1000:03d}Z"


@dataclass
class Escrow:
    blockchain_identifier: str
    network: str
    agent_identifier: str
    seller_vkey: str
    identifier_from_purchaser: str
    input_hash: str
    pay_by_time: int
    submit_result_time: int
    unlock_time: int
    external_dispute_unlock_time: int
    signed: dict[str, Any] = field(default_factory=dict)  # what the identifier signs
    metadata: str | None = None
    pricing_type: str = "Fixed"
    requested_funds: list[dict[str, str]] = field(default_factory=list)
    payment_source_type: str = V1
    smart_contract_address: str = ""
    seller_return_address: str | None = None
    payment_id: str = ""
    purchase_id: str = ""
    purchased: bool = False
    purchase_metadata: str | None = None
    purchase_amounts: list[dict[str, str]] | None = None
    paid_funds: list[dict[str, str]] = field(default_factory=list)
    on_chain_state: str | None = None
    result_hash: str | None = None
    submitted_hash: str | None = None  # asked for, not yet on chain
    tx_hash: str | None = None
    tx_at: int = 0
    previous_state: str | None = None
    purchase_action: str = FUNDS_LOCKING_REQUESTED
    payment_action: str = WAITING_EXTERNAL
    error_note: str | None = None
    pending: str | None = None  # lock | submit | refund | cancel | authorize
    pending_due: int = 0
    history: list[dict[str, Any]] = field(default_factory=list)
    created_at: int = 0
    updated_at: int = 0


@dataclass
class NodeConfig:
    tokens: dict[str, frozenset[str]]  # token → rights ("read", "pay", "admin")
    seller_vkey: str = "local-seller-vkey"
    testing: bool = False
    lock_funds: bool = True  # False: purchases never get their funds locked (tests)
    unavailable_for: int = 0  # answer 503 to the next N requests (tests: a node that is down)
    # How long the batches and the chain take before an action shows (the real node: minutes)
    chain_delay_ms: int = 1000
    # The V2 contract a seller's payment selects with supportedPaymentSourceIndex
    v2_contract_address: str = "addr_test1wqlocalv2paymentcontract"
    seller_collection_address: str = "addr_test1qqlocalsellercollection"
    # Answers forced on the next requests to a path (tests: a concurrent change's 409)
    forced: dict[str, list[int]] = field(default_factory=dict)
