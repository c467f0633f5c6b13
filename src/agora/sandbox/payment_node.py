"""A local Masumi payment node: the REST contract of masumi-payment-service over an in-memory
escrow book that stands in for the chain (docs/payments.md, "The local payment node").

It answers as the real service does at commit ``aca3833`` (github.com/masumi-network/
masumi-payment-service; each rule below names the file it mirrors), never more kindly:

- routes under ``/api/v1``: seller ``POST /payment`` (``src/routes/api/payments/index.ts``),
  ``/payment/resolve-blockchain-identifier``, ``/payment/submit-result``,
  ``/payment/authorize-refund``; buyer ``POST /purchase`` (``purchases/index.ts``,
  ``purchases/shared.ts``), ``/purchase/resolve-blockchain-identifier``,
  ``/purchase/request-refund``, ``/purchase/cancel-refund-request``,
  ``/purchase/error-state-recovery``; ``POST /registry`` (a minimal registration that records
  an agent's pricing);
- envelopes ``{"status":"success","data":…}`` / ``{"status":"error","error":{"message":…}}``,
  a 409 "Purchase exists" adding ``id`` and ``object`` (``packages/payment-core/src/
  endpoint-factory.ts``, ``http-exists-error.ts``);
- every auth failure is **401** (no key, bad key, key without the right:
  ``packages/payment-core/src/auth-middleware.ts``);
- ``POST /payment`` takes ISO 8601 dates (``ez.dateIn()``, ``payments/schemas.ts``) and refuses
  Unix milliseconds; ``POST /purchase`` takes Unix milliseconds as strings; objects carry
  times as Unix-ms strings and dates (``createdAt``…) as ISO strings;
- objects carry only the real fields (``purchaseResponseSchema`` in ``purchases/schemas.ts``,
  ``paymentResponseSchema`` in ``payments/schemas.ts``): a Purchase has no
  ``identifierFromPurchaser``, ``network`` or ``sellerVkey``;
- actions take effect later, as the real node's batches and the chain do: a new purchase is
  ``onChainState: null`` with ``NextAction.requestedAction: FundsLockingRequested``; the funds
  lock ``chain_delay_ms`` later (``FundsLocked``, ``WaitingForExternalAction``). A submitted
  result (``SubmitResultRequested``), a refund request (``SetRefundRequestedRequested``), its
  cancellation and a seller's authorisation likewise change the state only after the delay;
  meanwhile the next request on that purchase answers **404** "not found or in (not in a)
  valid state", as the real routes do (they select on ``NextAction:
  WaitingForExternalAction``).

"The chain" is lazy: each request first applies what time has made true. The clock can be
moved, and forced answers queued (a concurrent change's 409), through ``/api/v1/testing/*``
only when the node is built with ``testing=True`` (``agora payment-node --testing``). Every
answer carries ``X-Node-Time`` (the node's clock, Unix ms) beside ``Date``.

Simplifications (no chain, no wallets): the blockchainIdentifier is the signed fields as hex
plus an HMAC (the real one is a CIP-8 signature over the same fields); the seller's key is
``NodeConfig.seller_vkey``; an agent not registered here is priced Fixed (Dynamic when its
payment names ``RequestedFunds``), where the real node reads its on-chain metadata.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import secrets
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email.utils import format_datetime
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from agora.mip003.hashes import valid_hash, valid_purchaser_identifier

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

# ez.dateIn() (express-zod-api): an ISO date, or a date-time with Z or no zone
_ISO_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?Z?)?$")


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
    purchased_at: int = 0


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


class PaymentNode:
    """The node's state and rules; ``app`` serves it over HTTP."""

    def __init__(self, config: NodeConfig, clock: NodeClock | None = None) -> None:
        self.config = config
        self.clock = clock or NodeClock()
        self.escrows: OrderedDict[str, Escrow] = OrderedDict()
        self.by_request: dict[tuple[str, str, str], str] = {}
        self.pricing: dict[str, tuple[str, list[dict[str, str]]]] = {}
        self._secret = secrets.token_bytes(32)

    # ---- the chain ---------------------------------------------------------------------

    def _set_state(self, escrow: Escrow, state: str | None, why: str) -> None:
        now = self.clock.now_ms()
        escrow.previous_state = escrow.on_chain_state
        escrow.on_chain_state = state
        escrow.tx_hash = secrets.token_hex(32)
        escrow.tx_at = now
        escrow.updated_at = now
        escrow.history.append({"state": state, "at": str(now), "why": why})

    def _schedule(self, escrow: Escrow, what: str) -> None:
        escrow.pending = what
        escrow.pending_due = self.clock.now_ms() + max(0, self.config.chain_delay_ms)
        escrow.updated_at = self.clock.now_ms()

    def _apply_pending(self, escrow: Escrow, now: int) -> None:
        what, escrow.pending = escrow.pending, None
        state = escrow.on_chain_state
        if what == "lock":
            if now <= escrow.pay_by_time:
                escrow.paid_funds = list(escrow.purchase_amounts or escrow.requested_funds)
                self._set_state(escrow, FUNDS_LOCKED, "the buyer's funds were locked")
                escrow.purchase_action = escrow.payment_action = WAITING_EXTERNAL
            else:  # the batch missed payByTime: the real node stops and asks for a person
                escrow.purchase_action = WAITING_MANUAL
                escrow.error_note = "payByTime passed before the funds were locked"
        elif what == "submit":
            escrow.payment_action = WAITING_EXTERNAL
            if now >= escrow.submit_result_time:  # the contract refuses a late result
                escrow.payment_action = WAITING_MANUAL
                escrow.error_note = "submitResultTime passed: the result was not accepted"
                escrow.submitted_hash = None
                return
            escrow.result_hash, escrow.submitted_hash = escrow.submitted_hash, None
            target = {REFUND_REQUESTED: DISPUTED, DISPUTED: DISPUTED}.get(
                state or "", RESULT_SUBMITTED
            )
            self._set_state(escrow, target, "the seller's result hash is on chain")
        elif what == "refund":
            escrow.purchase_action = WAITING_EXTERNAL
            if now >= escrow.unlock_time and escrow.result_hash is not None:
                escrow.purchase_action = WAITING_MANUAL  # the contract refuses after unlockTime
                escrow.error_note = "unlockTime passed: the refund request was not accepted"
                return
            target = REFUND_REQUESTED if escrow.result_hash is None else DISPUTED
            self._set_state(escrow, target, "the buyer's refund request is on chain")
        elif what == "cancel":
            escrow.purchase_action = WAITING_EXTERNAL
            target = FUNDS_LOCKED if state == REFUND_REQUESTED else RESULT_SUBMITTED
            self._set_state(escrow, target, "the buyer cancelled the refund request")
        elif what == "authorize":
            escrow.payment_action = WAITING_EXTERNAL
            self._set_state(escrow, REFUND_AUTHORIZED, "the seller authorized the refund")

    def advance(self, escrow: Escrow) -> Escrow:
        """Apply what time has made true since the last look (the batches and the chain)."""
        now = self.clock.now_ms()
        if escrow.pending is not None and now >= escrow.pending_due:
            self._apply_pending(escrow, now)
        if escrow.pending is not None:
            return escrow
        state = escrow.on_chain_state
        if state == RESULT_SUBMITTED and now >= escrow.unlock_time:
            self._set_state(escrow, WITHDRAWN, "the seller withdrew after unlockTime")
        elif state == REFUND_AUTHORIZED or (
            state == REFUND_REQUESTED
            and escrow.result_hash is None
            and now >= escrow.submit_result_time
        ):
            self._set_state(escrow, REFUND_WITHDRAWN, "the buyer withdrew the refund")
        elif state == DISPUTED and now >= escrow.external_dispute_unlock_time:
            self._set_state(escrow, DISPUTED_WITHDRAWN, "the network settled the dispute")
        if escrow.on_chain_state in FINAL_STATES:
            escrow.purchase_action = escrow.payment_action = NONE
        return escrow

    # ---- the identifier ----------------------------------------------------------------

    def _identifier(self, fields: dict[str, Any]) -> str:
        payload = json.dumps(fields, sort_keys=True, separators=(",", ":")).encode()
        signature = hmac.new(self._secret, payload, hashlib.sha256).hexdigest()[:32]
        return payload.hex() + signature

    def _decode(self, blockchain_identifier: str) -> dict[str, Any] | None:
        try:
            payload = bytes.fromhex(blockchain_identifier[:-32])
        except ValueError:
            return None
        expected = hmac.new(self._secret, payload, hashlib.sha256).hexdigest()[:32]
        if not hmac.compare_digest(expected, blockchain_identifier[-32:]):
            return None
        try:
            decoded = json.loads(payload)
        except ValueError:
            return None
        return decoded if isinstance(decoded, dict) else None

    def get(self, network: str, blockchain_identifier: str, missing: str) -> Escrow:
        escrow = self.escrows.get(blockchain_identifier)
        if escrow is None or escrow.network != network:
            raise NodeError(404, missing)
        return self.advance(escrow)

    # ---- seller ------------------------------------------------------------------------

    def create_payment(self, body: dict[str, Any]) -> Escrow:
        """payments/index.ts paymentInitPost."""
        now = self.clock.now_ms()
        network = _network(body)
        agent = _text(body, "agentIdentifier", 1, 250)
        purchaser = _text(body, "identifierFromPurchaser", 14, 26)
        if not valid_purchaser_identifier(purchaser):
            raise NodeError(400, "Purchaser identifier is not a valid hex string")
        digest = _text(body, "inputHash", 1, 250)
        if not valid_hash(digest):
            raise NodeError(400, "Input hash is not a valid hex string")
        key = (agent, purchaser, digest)
        existing = self.by_request.get(key)
        if existing is not None and existing in self.escrows:  # a repeated call: the same row
            return self.advance(self.escrows[existing])
        # ez.dateIn() with the schema's default (1970-01-01T12:00:00Z: "in the past")
        pay_by = _date(body, "payByTime", 12 * HOUR_MS)
        submit = _date(body, "submitResultTime", 12 * HOUR_MS)
        unlock = _date(body, "unlockTime", submit + 6 * HOUR_MS)
        dispute = _date(body, "externalDisputeUnlockTime", submit + 12 * HOUR_MS)
        check_times(now, pay_by, submit, unlock, dispute)
        index = body.get("supportedPaymentSourceIndex")
        if index is not None and (
            isinstance(index, bool) or not isinstance(index, int) or not 0 <= index <= 24
        ):
            raise NodeError(400, "supportedPaymentSourceIndex must be an integer from 0 to 24")
        source_type = V2 if index is not None else V1
        given_type = body.get("paymentSourceType")
        if given_type is not None and given_type != source_type:
            raise NodeError(400, "paymentSourceType does not match the agent registry source")
        requested = body.get("RequestedFunds")
        pricing_type, listed = self.pricing.get(agent, ("Dynamic" if requested else "Fixed", []))
        if pricing_type == "Fixed" and requested is not None:
            raise NodeError(400, "For fixed pricing, RequestedFunds must be null")
        if pricing_type == "Dynamic" and not requested:
            raise NodeError(400, "For dynamic pricing, RequestedFunds must be provided")
        if pricing_type not in ("Fixed", "Dynamic"):
            raise NodeError(400, "Pricing type not supported for payments")
        funds = _amounts(requested, "RequestedFunds") if pricing_type == "Dynamic" else listed
        if pricing_type == "Dynamic" and any(int(a["amount"]) <= 0 for a in funds):
            raise NodeError(400, "RequestedFunds amounts must be positive")
        return_address = body.get("sellerReturnAddress") or self.config.seller_collection_address
        signed: dict[str, Any] = {
            "agentIdentifier": agent,
            "purchaserIdentifier": purchaser,
            "inputHash": digest,
            "sellerVkey": self.config.seller_vkey,
            "requestedFunds": funds if pricing_type == "Dynamic" else None,
            "payByTime": str(pay_by),
            "submitResultTime": str(submit),
            "unlockTime": str(unlock),
            "externalDisputeUnlockTime": str(dispute),
            "sellerReturnAddress": return_address,
            "smartContractAddress": self.config.v2_contract_address if index is not None else None,
            "supportedPaymentSourceIndex": index,
            "paymentSourceType": source_type,
            "nonce": secrets.token_hex(8),
        }
        metadata = body.get("metadata")
        escrow = Escrow(
            blockchain_identifier=self._identifier(signed),
            network=network,
            agent_identifier=agent,
            seller_vkey=self.config.seller_vkey,
            identifier_from_purchaser=purchaser,
            input_hash=digest,
            pay_by_time=pay_by,
            submit_result_time=submit,
            unlock_time=unlock,
            external_dispute_unlock_time=dispute,
            signed=signed,
            metadata=str(metadata)[:1000] if metadata is not None else None,
            pricing_type=pricing_type,
            requested_funds=funds,
            payment_source_type=source_type,
            smart_contract_address=(
                self.config.v2_contract_address if index is not None else "addr_test1wqlocalv1"
            ),
            seller_return_address=return_address,
            payment_id=_cuid(),
            purchase_id=_cuid(),
            created_at=now,
            updated_at=now,
        )
        self.escrows[escrow.blockchain_identifier] = escrow
        self.by_request[key] = escrow.blockchain_identifier
        while len(self.escrows) > MAX_ESCROWS:
            _, old = self.escrows.popitem(last=False)
            self.by_request.pop(
                (old.agent_identifier, old.identifier_from_purchaser, old.input_hash)
            )
        return escrow

    def submit_result(self, body: dict[str, Any]) -> Escrow:
        """payments/submit-result/index.ts: FundsLocked, RefundRequested or Disputed with
        NextAction WaitingForExternalAction, else 404; the hash goes on chain later."""
        escrow = self.get(
            _network(body), _text(body, "blockchainIdentifier", 1, 8000), PAYMENT_INVALID
        )
        digest = _text(body, "submitResultHash", 1, 250)
        if not valid_hash(digest):
            raise NodeError(400, "Result hash is not a valid hex string")
        if (
            escrow.on_chain_state not in (FUNDS_LOCKED, REFUND_REQUESTED, DISPUTED)
            or escrow.payment_action != WAITING_EXTERNAL
            or escrow.pending is not None
        ):
            raise NodeError(404, PAYMENT_INVALID)
        escrow.submitted_hash = digest
        escrow.payment_action = SUBMIT_RESULT_REQUESTED
        self._schedule(escrow, "submit")
        return self.advance(escrow)

    def authorize_refund(self, body: dict[str, Any]) -> Escrow:
        """payments/authorize-refund/index.ts: Disputed or RefundRequested, else 404."""
        escrow = self.get(
            _network(body), _text(body, "blockchainIdentifier", 1, 8000), PAYMENT_INVALID
        )
        if (
            escrow.on_chain_state not in (DISPUTED, REFUND_REQUESTED)
            or escrow.payment_action != WAITING_EXTERNAL
            or escrow.pending is not None
        ):
            raise NodeError(404, PAYMENT_INVALID)
        escrow.payment_action = AUTHORIZE_REFUND_REQUESTED
        self._schedule(escrow, "authorize")
        return self.advance(escrow)

    def register(self, body: dict[str, Any]) -> dict[str, Any]:
        _network(body)
        name = _text(body, "name", 1, 250)
        pricing = body.get("AgentPricing")
        kinds = ("Fixed", "Free", "Dynamic")
        if not isinstance(pricing, dict) or pricing.get("pricingType") not in kinds:
            raise NodeError(400, "AgentPricing.pricingType must be Fixed, Free or Dynamic")
        kind = str(pricing["pricingType"])
        amounts = _amounts(pricing.get("Pricing") or [], "Pricing") if kind == "Fixed" else []
        agent_identifier = secrets.token_hex(28) + name.encode()[:32].hex()
        self.pricing[agent_identifier] = (kind, amounts)
        return {
            "agentIdentifier": agent_identifier,
            "name": name,
            "state": "RegistrationConfirmed",
            "AgentPricing": {"pricingType": kind, "Pricing": amounts},
            "sellingWalletVkey": self.config.seller_vkey,
        }

    # ---- buyer -------------------------------------------------------------------------

    def create_purchase(self, body: dict[str, Any]) -> Escrow:
        """purchases/index.ts createPurchaseInitPost and purchases/shared.ts
        resolvePurchaseCreationContext, in their order."""
        now = self.clock.now_ms()
        network = _network(body)
        identifier = _text(body, "blockchainIdentifier", 1, 8000)
        existing = self.escrows.get(identifier)
        if existing is not None and existing.network == network and existing.purchased:
            self.advance(existing)
            raise NodeError(
                409,
                PURCHASE_EXISTS,
                {"id": existing.purchase_id, "object": self.purchase_view(existing)},
            )
        decoded = self._decode(identifier)
        if decoded is None:
            raise NodeError(400, "Invalid blockchain identifier, format invalid")
        inferred = V2 if decoded.get("smartContractAddress") else V1
        given_type = body.get("paymentSourceType")
        if given_type is not None and given_type != inferred:
            raise NodeError(400, "Payment source type does not match the blockchain identifier")
        index = body.get("supportedPaymentSourceIndex")
        if inferred == V1 and index is not None:
            raise NodeError(
                400,
                "V1 Cardano purchases must not set supportedPaymentSourceIndex; pricing comes "
                "from AgentPricing",
            )
        contract = body.get("smartContractAddress")
        if inferred == V2 and contract and contract != decoded["smartContractAddress"]:
            raise NodeError(400, "Invalid blockchain identifier, smartContractAddress mismatch")
        digest = _text(body, "inputHash", 1, 250)
        if not re.fullmatch(r"[0-9a-fA-F]*", digest):
            raise NodeError(400, "Input hash is not a valid hex string")
        escrow = existing
        if escrow is None or escrow.network != network:
            raise NodeError(404, "No payment source found for agent identifiers policy id")
        purchaser = _text(body, "identifierFromPurchaser", 14, 26)
        agent = _text(body, "agentIdentifier", 1, 250)
        seller_vkey = _text(body, "sellerVkey", 1, 250)
        times = [
            _ms_text(body, name)
            for name in ("payByTime", "submitResultTime", "unlockTime", "externalDisputeUnlockTime")
        ]
        check_times(now, *times)
        if seller_vkey != decoded["sellerVkey"]:
            raise NodeError(400, "Invalid seller vkey")
        amounts = body.get("Amounts")
        given = _amounts(amounts, "Amounts") if amounts is not None else None
        if escrow.pricing_type == "Fixed":
            listed = _unit_totals(escrow.requested_funds)
            if given is not None and agent in self.pricing and _unit_totals(given) != listed:
                raise NodeError(400, "Provided Amounts do not match the fixed pricing of the agent")
        else:
            if not given:
                raise NodeError(400, "For dynamic pricing, Amounts must be provided")
            if any(int(a["amount"]) <= 0 for a in given):
                raise NodeError(400, "Amounts must be positive")
        if purchaser != decoded["purchaserIdentifier"]:
            raise NodeError(400, "Invalid blockchain identifier, purchaser id mismatch")
        if not valid_purchaser_identifier(purchaser):
            raise NodeError(400, "Purchaser identifier is not a valid hex string")
        if agent != decoded["agentIdentifier"]:
            raise NodeError(400, "Invalid blockchain identifier, agent identifier mismatch")
        # The seller's signature covers these: any other value breaks it (shared.ts)
        rebuilt = {
            **decoded,
            "inputHash": digest,
            "requestedFunds": (
                [{"amount": a["amount"], "unit": _unit(a["unit"])} for a in given]
                if escrow.pricing_type == "Dynamic" and given
                else None
            ),
            "payByTime": str(times[0]),
            "submitResultTime": str(times[1]),
            "unlockTime": str(times[2]),
            "externalDisputeUnlockTime": str(times[3]),
            "sellerReturnAddress": (
                body.get("sellerReturnAddress") or self.config.seller_collection_address
            ),
            "supportedPaymentSourceIndex": index,
            "paymentSourceType": given_type or inferred,
        }
        signed = {
            **decoded,
            "requestedFunds": (
                [
                    {"amount": a["amount"], "unit": _unit(a["unit"])}
                    for a in decoded["requestedFunds"]
                ]
                if decoded.get("requestedFunds")
                else None
            ),
        }
        if rebuilt != signed:
            raise NodeError(400, "Invalid blockchain identifier, signature invalid")
        escrow.purchased = True
        escrow.purchased_at = now
        escrow.purchase_amounts = given
        escrow.purchase_metadata = body.get("metadata")
        escrow.purchase_action = FUNDS_LOCKING_REQUESTED
        escrow.updated_at = now
        if self.config.lock_funds:
            self._schedule(escrow, "lock")
        return self.advance(escrow)

    def request_refund(self, body: dict[str, Any]) -> Escrow:
        """purchases/request-refund/index.ts: FundsLocked or ResultSubmitted with NextAction
        WaitingForExternalAction and a transaction, else 404; the state changes later."""
        escrow = self.get(
            _network(body), _text(body, "blockchainIdentifier", 1, 8000), REFUND_INVALID
        )
        if (
            not escrow.purchased
            or escrow.on_chain_state not in (FUNDS_LOCKED, RESULT_SUBMITTED)
            or escrow.purchase_action != WAITING_EXTERNAL
            or escrow.tx_hash is None
            or escrow.pending is not None
        ):
            raise NodeError(404, REFUND_INVALID)
        escrow.purchase_action = SET_REFUND_REQUESTED
        self._schedule(escrow, "refund")
        return self.advance(escrow)

    def cancel_refund_request(self, body: dict[str, Any]) -> Escrow:
        """purchases/cancel-refund-request/index.ts: RefundRequested or Disputed, else 404."""
        escrow = self.get(
            _network(body), _text(body, "blockchainIdentifier", 1, 8000), PURCHASE_INVALID
        )
        if (
            not escrow.purchased
            or escrow.on_chain_state not in (REFUND_REQUESTED, DISPUTED)
            or escrow.purchase_action != WAITING_EXTERNAL
            or escrow.pending is not None
        ):
            raise NodeError(404, PURCHASE_INVALID)
        escrow.purchase_action = UNSET_REFUND_REQUESTED
        self._schedule(escrow, "cancel")
        return self.advance(escrow)

    # ---- views (only the real fields) --------------------------------------------------

    def _transaction(self, escrow: Escrow) -> dict[str, Any] | None:
        if escrow.tx_hash is None:
            return None
        return {
            "id": escrow.tx_hash[:24],
            "createdAt": iso(escrow.tx_at),
            "updatedAt": iso(escrow.tx_at),
            "txHash": escrow.tx_hash,
            "status": "Confirmed",
            "fees": "180000",
            "blockHeight": None,
            "blockTime": None,
            "previousOnChainState": escrow.previous_state,
            "newOnChainState": escrow.on_chain_state,
            "confirmations": 1,
        }

    def _common(self, escrow: Escrow, action: str) -> dict[str, Any]:
        changed = iso(escrow.updated_at)
        return {
            "createdAt": iso(escrow.created_at),
            "updatedAt": changed,
            "blockchainIdentifier": escrow.blockchain_identifier,
            "agentIdentifier": escrow.agent_identifier,
            "agentName": None,
            "pricingType": escrow.pricing_type,
            "lastCheckedAt": None,
            "payByTime": str(escrow.pay_by_time),
            "submitResultTime": str(escrow.submit_result_time),
            "unlockTime": str(escrow.unlock_time),
            "externalDisputeUnlockTime": str(escrow.external_dispute_unlock_time),
            "totalBuyerCardanoFees": 0,
            "totalSellerCardanoFees": 0,
            "nextActionOrOnChainStateOrResultLastChangedAt": changed,
            "nextActionLastChangedAt": changed,
            "onChainStateOrResultLastChangedAt": changed,
            "requestedById": "local-api-key",
            "onChainState": escrow.on_chain_state,
            "collateralReturnLovelace": None,
            "buyerReturnAddress": None,
            "sellerReturnAddress": escrow.seller_return_address,
            "cooldownTime": 0,
            "cooldownTimeOtherParty": 0,
            "inputHash": escrow.input_hash,
            "resultHash": escrow.result_hash,
            "NextAction": {
                "requestedAction": action,
                "errorType": "Unknown" if action == WAITING_MANUAL else None,
                "errorNote": escrow.error_note if action == WAITING_MANUAL else None,
            },
            "CurrentTransaction": self._transaction(escrow),
            "WithdrawnForSeller": [],
            "WithdrawnForBuyer": [],
            "PaymentSource": {
                "id": "local-payment-source",
                "network": escrow.network,
                "paymentSourceType": escrow.payment_source_type,
                "smartContractAddress": escrow.smart_contract_address,
                "policyId": escrow.agent_identifier[:56],
            },
            "SmartContractWallet": None,
        }

    def purchase_view(self, escrow: Escrow) -> dict[str, Any]:
        """purchaseResponseSchema (purchases/schemas.ts)."""
        return {
            "id": escrow.purchase_id,
            **self._common(escrow, escrow.purchase_action),
            "PaidFunds": escrow.paid_funds,
            "SellerWallet": {"id": "local-seller-wallet", "walletVkey": escrow.seller_vkey},
            "metadata": escrow.purchase_metadata,
        }

    def payment_view(self, escrow: Escrow) -> dict[str, Any]:
        """paymentResponseSchema (payments/schemas.ts)."""
        view = {
            "id": escrow.payment_id,
            **self._common(escrow, escrow.payment_action),
            "resultHash": escrow.result_hash or "",  # created with resultHash: ""
            "RequestedFunds": escrow.requested_funds,
            "BuyerWallet": None,
            "metadata": escrow.metadata,
        }
        view["NextAction"]["resultHash"] = escrow.submitted_hash or escrow.result_hash
        return view


# ---- validation helpers --------------------------------------------------------------------


def check_times(now: int, pay_by: int, submit: int, unlock: int, dispute: int) -> None:
    """The real rules and messages (payments/index.ts, purchases/shared.ts), in their order."""
    if pay_by > submit - 5 * MINUTE_MS:
        raise NodeError(400, "Pay by time must be before submit result time (min. 5 minutes)")
    if pay_by < now - 5 * MINUTE_MS:
        raise NodeError(400, "Pay by time must be in the future (max. 5 minutes)")
    if dispute < unlock + 15 * MINUTE_MS:
        raise NodeError(
            400,
            "External dispute unlock time must be after unlock time (min. 15 minutes difference)",
        )
    if submit < now + 15 * MINUTE_MS:
        raise NodeError(400, "Submit result time must be in the future (min. 15 minutes)")
    if submit > unlock - 15 * MINUTE_MS:
        raise NodeError(
            400,
            "Submit result time must be before unlock time with at least 15 minutes difference",
        )


def _cuid() -> str:
    return "c" + secrets.token_hex(12)


def _network(body: dict[str, Any]) -> str:
    network = body.get("network")
    if network not in NETWORKS:
        raise NodeError(400, "network: Invalid enum value. Expected 'Preprod' | 'Mainnet'")
    return str(network)


def _text(body: dict[str, Any], name: str, low: int, high: int) -> str:
    value = body.get(name)
    if not isinstance(value, str) or not low <= len(value) <= high:
        raise NodeError(400, f"{name}: a string of {low}-{high} characters is required")
    return value


def _date(body: dict[str, Any], name: str, default: int) -> int:
    """``ez.dateIn()``: an ISO 8601 date string; Unix milliseconds are refused."""
    value = body.get(name)
    if value is None:
        return default
    if not isinstance(value, str) or not _ISO_DATE.fullmatch(value):
        raise NodeError(400, f"{name}: Invalid date, expected an ISO 8601 string")
    try:
        parsed = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError as exc:
        raise NodeError(400, f"{name}: Invalid date, expected an ISO 8601 string") from exc
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=UTC)
    return int(parsed.timestamp() * 1000)


def _ms_text(body: dict[str, Any], name: str) -> int:
    """``POST /purchase`` times: Unix milliseconds as a string (``BigInt(input.x)``)."""
    value = body.get(name)
    if not isinstance(value, str):
        raise NodeError(400, f"{name}: Expected string, received {type(value).__name__}")
    if not value.isdigit():
        raise NodeError(400, f"Cannot convert {value} to a BigInt")
    return int(value)


def _unit(unit: str) -> str:
    """utils/shared/transformers.ts normalizePurchaseUnit: lovelace is the empty unit."""
    return "" if unit.lower() == "lovelace" else unit


def _unit_totals(amounts: list[dict[str, str]]) -> dict[str, int]:
    totals: dict[str, int] = {}
    for amount in amounts:
        unit = _unit(amount["unit"])
        totals[unit] = totals.get(unit, 0) + int(amount["amount"])
    return totals


def _amounts(value: Any, name: str) -> list[dict[str, str]]:
    if not isinstance(value, list) or len(value) > 7:
        raise NodeError(400, f"{name}: a list of at most 7 {{amount, unit}} is required")
    out = []
    for item in value:
        if not isinstance(item, dict) or not isinstance(item.get("unit"), str):
            raise NodeError(400, f"{name}: each amount needs a unit and an amount")
        amount = item.get("amount")
        if not isinstance(amount, str) or not amount.isdigit() or len(amount) > 25:
            raise NodeError(400, f"{name}: amount must be a whole number, as a string")
        out.append({"amount": amount, "unit": item["unit"]})
    return out


# ---- HTTP ----------------------------------------------------------------------------------

Handler = Callable[[dict[str, Any]], Any]


def build_node_app(node: PaymentNode) -> Starlette:
    """The node as an ASGI app (mount it anywhere; routes live under ``/api/v1``)."""

    def respond(status: int, payload: dict[str, Any]) -> Response:
        now = node.clock.now_ms()
        headers = {
            "x-node-time": str(now),
            "date": format_datetime(datetime.fromtimestamp(now / 1000, UTC), usegmt=True),
        }
        return JSONResponse(payload, status_code=status, headers=headers)

    def error(status: int, message: str, extra: dict[str, Any] | None = None) -> Response:
        return respond(status, {"status": "error", "error": {"message": message}, **(extra or {})})

    def endpoint(
        path: str, handler: Handler, right: str, *, testing: bool = False
    ) -> Callable[[Request], Awaitable[Response]]:
        async def run(request: Request) -> Response:
            if testing and not node.config.testing:
                return error(404, "Not found")
            if node.config.unavailable_for > 0 and not testing:
                node.config.unavailable_for -= 1
                return error(503, "the payment node is unavailable")
            # packages/payment-core/src/auth-middleware.ts: every refusal is a 401
            token = request.headers.get("token", "")
            if not token:
                return error(401, "Unauthorized, no authentication token provided")
            rights = next(
                (r for t, r in node.config.tokens.items() if hmac.compare_digest(t, token)), None
            )
            if rights is None:
                return error(401, "Unauthorized, invalid authentication token provided")
            if right not in rights and "admin" not in rights:
                return error(401, f"Unauthorized, {right} access required")
            forced = node.config.forced.get(path)
            if forced and not testing:
                status = forced.pop(0)
                if status == 409 and path in CONCURRENT:
                    return error(409, CONCURRENT[path])
                if status == 404 and path in FORCED_404:
                    return error(404, FORCED_404[path])
                return error(status, f"forced answer {status}")
            raw = await request.body()
            if len(raw) > MAX_BODY_BYTES:
                return error(413, "request entity too large")
            try:
                body = json.loads(raw) if raw else {}
            except ValueError:
                return error(400, "the body must be JSON")
            if not isinstance(body, dict):
                return error(400, "the body must be a JSON object")
            try:
                data = handler(body)
            except NodeError as exc:
                return error(exc.status, exc.message, exc.extra)
            return respond(200, {"status": "success", "data": data})

        return run

    def seller(method: Callable[[dict[str, Any]], Escrow]) -> Handler:
        return lambda body: node.payment_view(method(body))

    def buyer(method: Callable[[dict[str, Any]], Escrow]) -> Handler:
        return lambda body: node.purchase_view(method(body))

    def resolve_payment(body: dict[str, Any]) -> dict[str, Any]:
        identifier = _text(body, "blockchainIdentifier", 1, 8000)
        return node.payment_view(node.get(_network(body), identifier, "Payment not found"))

    def resolve_purchase(body: dict[str, Any]) -> dict[str, Any]:
        identifier = _text(body, "blockchainIdentifier", 1, 8000)
        escrow = node.get(_network(body), identifier, "Purchase not found")
        if not escrow.purchased:
            raise NodeError(404, "Purchase not found")
        view = node.purchase_view(escrow)
        return {**view, "ActionHistory": None, "TransactionHistory": None}

    def recover(body: dict[str, Any]) -> dict[str, Any]:
        identifier = _text(body, "blockchainIdentifier", 1, 8000)
        escrow = node.get(_network(body), identifier, "Purchase not found")
        if escrow.purchase_action != WAITING_MANUAL:
            raise NodeError(400, "Purchase request is not in an error state. No error to clear.")
        escrow.purchase_action, escrow.error_note = WAITING_EXTERNAL, None
        return node.purchase_view(escrow)

    def move_clock(body: dict[str, Any]) -> dict[str, Any]:
        advance = body.get("advanceMs")
        if not isinstance(advance, int) or isinstance(advance, bool) or advance < 0:
            raise NodeError(400, "advanceMs must be a non-negative integer")
        node.clock.offset_ms += advance
        return {"now": str(node.clock.now_ms()), "offsetMs": node.clock.offset_ms}

    def chain(body: dict[str, Any]) -> dict[str, Any]:
        config = node.config
        if "lockFunds" in body:
            config.lock_funds = bool(body["lockFunds"])
        if "unavailableFor" in body:
            config.unavailable_for = max(0, int(body["unavailableFor"]))
        if "chainDelayMs" in body:
            config.chain_delay_ms = max(0, int(body["chainDelayMs"]))
        forced = body.get("forced")
        if isinstance(forced, dict):
            for path, statuses in forced.items():
                config.forced[str(path)] = [int(s) for s in statuses][:100]
        return {
            "lockFunds": config.lock_funds,
            "unavailableFor": config.unavailable_for,
            "chainDelayMs": config.chain_delay_ms,
            "forced": config.forced,
        }

    routes = [
        ("/payment", seller(node.create_payment), "pay"),
        ("/payment/resolve-blockchain-identifier", resolve_payment, "read"),
        ("/payment/submit-result", seller(node.submit_result), "pay"),
        ("/payment/authorize-refund", seller(node.authorize_refund), "pay"),
        ("/purchase", buyer(node.create_purchase), "pay"),
        ("/purchase/resolve-blockchain-identifier", resolve_purchase, "read"),
        ("/purchase/request-refund", buyer(node.request_refund), "pay"),
        ("/purchase/cancel-refund-request", buyer(node.cancel_refund_request), "pay"),
        ("/purchase/error-state-recovery", recover, "pay"),
        ("/registry", node.register, "pay"),
    ]
    testing_routes = [("/testing/clock", move_clock), ("/testing/chain", chain)]
    return Starlette(
        routes=[
            # express answers a path with or without its trailing slash (the SDK posts
            # /payment/)
            *(
                Route(f"/api/v1{p}{slash}", endpoint(p, h, r), methods=["POST"])
                for p, h, r in routes
                for slash in ("", "/")
            ),
            *(
                Route(f"/api/v1{p}", endpoint(p, h, "admin", testing=True), methods=["POST"])
                for p, h in testing_routes
            ),
        ]
    )


def local_node(
    token: str,
    *,
    testing: bool = False,
    read_token: str | None = None,
    chain_delay_ms: int = 1000,
) -> tuple[PaymentNode, Starlette]:
    """A node with one full-rights key (and optionally a read-only one); actions take effect
    ``chain_delay_ms`` after they are asked for."""
    tokens = {token: frozenset({"read", "pay", "admin"})}
    if read_token:
        tokens[read_token] = frozenset({"read"})
    config = NodeConfig(tokens=tokens, testing=testing, chain_delay_ms=chain_delay_ms)
    node = PaymentNode(config)
    return node, build_node_app(node)
