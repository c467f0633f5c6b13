"""A local Masumi payment node: the REST contract of masumi-payment-service over an in-memory
escrow book that stands in for the chain (docs/payments.md, "The local payment node").

Both sides of the reference contract, under ``/api/v1``:

- seller: ``POST /payment``, ``/payment/resolve-blockchain-identifier``, ``/payment/submit-result``,
  ``/payment/authorize-refund``;
- buyer: ``POST /purchase``, ``/purchase/resolve-blockchain-identifier``,
  ``/purchase/request-refund``, ``/purchase/cancel-refund-request``,
  ``/purchase/error-state-recovery``;
- ``POST /registry`` (a minimal registration that records an agent's price, for the drift guard).

Same field names, envelopes (``{"status":"success","data":…}`` / ``{"status":"error","error":
{"message":…}}``), errors (400 validation and times, 401 no key, 403 missing right, 404 unknown
identifier, 409 duplicate or wrong state) and time rules as the real node; times are Unix
milliseconds as strings. "The chain" is lazy: each request first applies what time has made
true (funds lock on purchase, the seller withdraws after ``unlockTime``, a requested refund is
withdrawn after ``submitResultTime`` when no result exists, open disputes are settled by the
network after ``externalDisputeUnlockTime``).

The clock can be moved through ``POST /api/v1/testing/clock`` only when the node is built with
``testing=True`` (``agora payment-node --testing``); off by default. Every answer carries
``X-Node-Time`` (the node's clock, Unix ms) beside ``Date``.
"""

from __future__ import annotations

import hashlib
import hmac
import json
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

from agora.payments.hashes import valid_hash, valid_purchaser_identifier

MINUTE_MS = 60_000
HOUR_MS = 60 * MINUTE_MS
MAX_ESCROWS = 100_000
MAX_BODY_BYTES = 64 * 1024
NETWORKS = ("Preprod", "Mainnet")

# On-chain states (reference/mip003.md "Payment states")
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


class NodeError(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status, self.message = status, message


class NodeClock:
    """Wall clock plus an offset that tests may move forward (never back)."""

    def __init__(self) -> None:
        self.offset_ms = 0

    def now_ms(self) -> int:
        return int(time.time() * 1000) + self.offset_ms


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
    metadata: str | None = None
    purchased: bool = False
    purchase_amounts: list[dict[str, str]] | None = None
    on_chain_state: str | None = None
    result_hash: str | None = None
    tx_hash: str | None = None
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


class PaymentNode:
    """The node's state and rules; ``app`` serves it over HTTP."""

    def __init__(self, config: NodeConfig, clock: NodeClock | None = None) -> None:
        self.config = config
        self.clock = clock or NodeClock()
        self.escrows: OrderedDict[str, Escrow] = OrderedDict()
        self.by_request: dict[tuple[str, str, str], str] = {}
        self.prices: dict[str, list[dict[str, str]]] = {}
        self._secret = secrets.token_bytes(32)

    # ---- the chain ---------------------------------------------------------------------

    def _set_state(self, escrow: Escrow, state: str | None, why: str) -> None:
        now = self.clock.now_ms()
        escrow.on_chain_state = state
        escrow.tx_hash = secrets.token_hex(32)
        escrow.updated_at = now
        escrow.history.append({"state": state, "at": str(now), "why": why})

    def advance(self, escrow: Escrow) -> Escrow:
        """Apply what time has made true since the last look (the chain, batched and confirmed)."""
        now = self.clock.now_ms()
        state = escrow.on_chain_state
        if escrow.purchased and state is None and self.config.lock_funds:
            if now <= escrow.pay_by_time:
                self._set_state(escrow, FUNDS_LOCKED, "the buyer's funds were locked")
        elif state == RESULT_SUBMITTED and now >= escrow.unlock_time:
            self._set_state(escrow, WITHDRAWN, "the seller withdrew after unlockTime")
        elif state == REFUND_AUTHORIZED or (
            state == REFUND_REQUESTED
            and escrow.result_hash is None
            and now >= escrow.submit_result_time
        ):
            self._set_state(escrow, REFUND_WITHDRAWN, "the buyer withdrew the refund")
        elif state == DISPUTED and now >= escrow.external_dispute_unlock_time:
            self._set_state(escrow, DISPUTED_WITHDRAWN, "the network settled the dispute")
        return escrow

    # ---- rules -------------------------------------------------------------------------

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
        decoded = json.loads(payload)
        return decoded if isinstance(decoded, dict) else None

    def get(self, network: str, blockchain_identifier: str) -> Escrow:
        escrow = self.escrows.get(blockchain_identifier)
        if escrow is None or escrow.network != network:
            raise NodeError(404, "Payment not found")
        return self.advance(escrow)

    def create_payment(self, body: dict[str, Any]) -> Escrow:
        now = self.clock.now_ms()
        network = _network(body)
        agent = _text(body, "agentIdentifier", 1, 250)
        purchaser = _text(body, "identifierFromPurchaser", 14, 26)
        if not valid_purchaser_identifier(purchaser):
            raise NodeError(400, "identifierFromPurchaser must be 14-26 hex characters")
        digest = _text(body, "inputHash", 64, 64)
        if not valid_hash(digest):
            raise NodeError(400, "inputHash must be 64 lowercase hex characters")
        key = (agent, purchaser, digest)
        existing = self.by_request.get(key)
        if existing is not None and existing in self.escrows:  # a repeated call: the same row
            return self.advance(self.escrows[existing])
        pay_by = _time(body, "payByTime", now + 12 * HOUR_MS)
        submit = _time(body, "submitResultTime", now + 24 * HOUR_MS)
        unlock = _time(body, "unlockTime", submit + 6 * HOUR_MS)
        dispute = _time(body, "externalDisputeUnlockTime", submit + 12 * HOUR_MS)
        check_times(now, pay_by, submit, unlock, dispute)
        metadata = body.get("metadata")
        fields = {
            "agentIdentifier": agent,
            "identifierFromPurchaser": purchaser,
            "inputHash": digest,
            "sellerVkey": self.config.seller_vkey,
            "nonce": secrets.token_hex(8),
        }
        escrow = Escrow(
            blockchain_identifier=self._identifier(fields),
            network=network,
            agent_identifier=agent,
            seller_vkey=self.config.seller_vkey,
            identifier_from_purchaser=purchaser,
            input_hash=digest,
            pay_by_time=pay_by,
            submit_result_time=submit,
            unlock_time=unlock,
            external_dispute_unlock_time=dispute,
            metadata=str(metadata)[:1000] if metadata is not None else None,
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

    def create_purchase(self, body: dict[str, Any]) -> Escrow:
        now = self.clock.now_ms()
        network = _network(body)
        identifier = _text(body, "blockchainIdentifier", 1, 10_000)
        decoded = self._decode(identifier)
        escrow = self.escrows.get(identifier)
        if decoded is None or escrow is None or escrow.network != network:
            raise NodeError(
                404, "blockchainIdentifier does not decode to a payment of this network"
            )
        purchaser = _text(body, "identifierFromPurchaser", 14, 26)
        if not valid_purchaser_identifier(purchaser):
            raise NodeError(400, "identifierFromPurchaser must be 14-26 hex characters")
        mismatches = [
            name
            for name, given, expected in (
                ("agentIdentifier", body.get("agentIdentifier"), decoded["agentIdentifier"]),
                ("identifierFromPurchaser", purchaser, decoded["identifierFromPurchaser"]),
                ("inputHash", body.get("inputHash"), decoded["inputHash"]),
                ("sellerVkey", body.get("sellerVkey"), decoded["sellerVkey"]),
            )
            if given != expected
        ]
        times = {
            "payByTime": escrow.pay_by_time,
            "submitResultTime": escrow.submit_result_time,
            "unlockTime": escrow.unlock_time,
            "externalDisputeUnlockTime": escrow.external_dispute_unlock_time,
        }
        for name, expected_time in times.items():
            if _time(body, name, None) != expected_time:
                mismatches.append(name)
        if mismatches:
            raise NodeError(
                400, f"the purchase does not match the payment: {', '.join(mismatches)}"
            )
        check_times(
            now,
            escrow.pay_by_time,
            escrow.submit_result_time,
            escrow.unlock_time,
            escrow.external_dispute_unlock_time,
        )
        amounts = body.get("Amounts")
        if amounts is not None:
            given = _amounts(amounts)
            listed = self.prices.get(escrow.agent_identifier)
            if listed is not None and sorted(given, key=_unit) != sorted(listed, key=_unit):
                raise NodeError(
                    400, f"Amounts {given} differ from the agent's listed price {listed}"
                )
        if escrow.purchased:
            raise NodeError(409, "a purchase for this blockchainIdentifier already exists")
        escrow.purchased = True
        escrow.purchase_amounts = _amounts(amounts) if amounts is not None else None
        escrow.updated_at = now
        return self.advance(escrow)

    def submit_result(self, body: dict[str, Any]) -> Escrow:
        escrow = self.get(_network(body), _text(body, "blockchainIdentifier", 1, 10_000))
        digest = _text(body, "submitResultHash", 64, 64)
        if not valid_hash(digest):
            raise NodeError(400, "submitResultHash must be 64 lowercase hex characters")
        if self.clock.now_ms() >= escrow.submit_result_time:
            raise NodeError(400, "submitResultTime has passed")
        if escrow.on_chain_state == FUNDS_LOCKED:
            escrow.result_hash = digest
            self._set_state(escrow, RESULT_SUBMITTED, "the seller submitted the result hash")
        elif escrow.on_chain_state == REFUND_REQUESTED:
            escrow.result_hash = digest
            self._set_state(escrow, DISPUTED, "a result was submitted against a refund request")
        else:
            raise NodeError(409, f"cannot submit a result in state {escrow.on_chain_state}")
        return escrow

    def request_refund(self, body: dict[str, Any]) -> Escrow:
        escrow = self.get(_network(body), _text(body, "blockchainIdentifier", 1, 10_000))
        if not escrow.purchased:
            raise NodeError(404, "Purchase not found")
        now = self.clock.now_ms()
        if escrow.on_chain_state not in (FUNDS_LOCKED, RESULT_SUBMITTED):
            raise NodeError(409, f"cannot request a refund in state {escrow.on_chain_state}")
        if now >= escrow.unlock_time and escrow.result_hash is not None:
            raise NodeError(400, "unlockTime has passed: the funds belong to the seller")
        if escrow.result_hash is None:
            self._set_state(escrow, REFUND_REQUESTED, "the buyer requested a refund")
        else:
            self._set_state(escrow, DISPUTED, "the buyer disputes the submitted result")
        return self.advance(escrow)

    def cancel_refund_request(self, body: dict[str, Any]) -> Escrow:
        escrow = self.get(_network(body), _text(body, "blockchainIdentifier", 1, 10_000))
        if escrow.on_chain_state == REFUND_REQUESTED:
            self._set_state(escrow, FUNDS_LOCKED, "the buyer cancelled the refund request")
        elif escrow.on_chain_state == DISPUTED:
            self._set_state(escrow, RESULT_SUBMITTED, "the buyer withdrew the dispute")
        else:
            raise NodeError(409, f"no refund request to cancel in state {escrow.on_chain_state}")
        return escrow

    def authorize_refund(self, body: dict[str, Any]) -> Escrow:
        escrow = self.get(_network(body), _text(body, "blockchainIdentifier", 1, 10_000))
        if escrow.on_chain_state not in (DISPUTED, REFUND_REQUESTED):
            raise NodeError(409, f"cannot authorize a refund in state {escrow.on_chain_state}")
        self._set_state(escrow, REFUND_AUTHORIZED, "the seller authorized the refund")
        return escrow

    def register(self, body: dict[str, Any]) -> dict[str, Any]:
        _network(body)
        name = _text(body, "name", 1, 250)
        pricing = body.get("AgentPricing")
        if not isinstance(pricing, dict) or pricing.get("pricingType") not in ("Fixed", "Free"):
            raise NodeError(400, "AgentPricing.pricingType must be Fixed or Free")
        amounts = (
            _amounts(pricing.get("Pricing") or []) if pricing["pricingType"] == "Fixed" else []
        )
        agent_identifier = secrets.token_hex(28) + name.encode()[:32].hex()
        self.prices[agent_identifier] = amounts
        return {
            "agentIdentifier": agent_identifier,
            "name": name,
            "state": "RegistrationConfirmed",
            "AgentPricing": {"pricingType": pricing["pricingType"], "Pricing": amounts},
            "sellingWalletVkey": self.config.seller_vkey,
        }

    # ---- views -------------------------------------------------------------------------

    def view(self, escrow: Escrow, *, buyer: bool) -> dict[str, Any]:
        state = escrow.on_chain_state
        if state in FINAL_STATES:
            action = "None"
        elif buyer:
            action = (
                "FundsLockingRequested"
                if escrow.purchased and state is None
                else "WaitingForExternalAction"
            )
        else:
            action = (
                "WaitingForExternalAction" if state != FUNDS_LOCKED else "SubmitResultRequested"
            )
        return {
            "blockchainIdentifier": escrow.blockchain_identifier,
            "network": escrow.network,
            "agentIdentifier": escrow.agent_identifier,
            "sellerVkey": escrow.seller_vkey,
            "identifierFromPurchaser": escrow.identifier_from_purchaser,
            "inputHash": escrow.input_hash,
            "resultHash": escrow.result_hash,
            "onChainState": state,
            "NextAction": {"requestedAction": action, "errorType": None, "errorNote": None},
            "CurrentTransaction": {"txHash": escrow.tx_hash} if escrow.tx_hash else None,
            "payByTime": str(escrow.pay_by_time),
            "submitResultTime": str(escrow.submit_result_time),
            "unlockTime": str(escrow.unlock_time),
            "externalDisputeUnlockTime": str(escrow.external_dispute_unlock_time),
            "Amounts": escrow.purchase_amounts,
            "metadata": escrow.metadata,
            "createdAt": str(escrow.created_at),
            "updatedAt": str(escrow.updated_at),
        }


# ---- validation helpers --------------------------------------------------------------------


def check_times(now: int, pay_by: int, submit: int, unlock: int, dispute: int) -> None:
    if pay_by > submit - 5 * MINUTE_MS:
        raise NodeError(400, "payByTime must be at least 5 minutes before submitResultTime")
    if pay_by < now - 5 * MINUTE_MS:
        raise NodeError(400, "payByTime must not be more than 5 minutes in the past")
    if submit < now + 15 * MINUTE_MS:
        raise NodeError(400, "submitResultTime must be at least 15 minutes in the future")
    if unlock < submit + 15 * MINUTE_MS:
        raise NodeError(400, "unlockTime must be at least 15 minutes after submitResultTime")
    if dispute < unlock + 15 * MINUTE_MS:
        raise NodeError(
            400, "externalDisputeUnlockTime must be at least 15 minutes after unlockTime"
        )


def _network(body: dict[str, Any]) -> str:
    network = body.get("network")
    if network not in NETWORKS:
        raise NodeError(400, "network must be Preprod or Mainnet")
    return str(network)


def _text(body: dict[str, Any], name: str, low: int, high: int) -> str:
    value = body.get(name)
    if not isinstance(value, str) or not low <= len(value) <= high:
        raise NodeError(400, f"{name} must be a string of {low}-{high} characters")
    return value


def _time(body: dict[str, Any], name: str, default: int | None) -> int:
    """Unix ms as a string (the contract); numbers and ISO 8601 strings are accepted too (the
    official Python SDK sends ISO strings)."""
    value = body.get(name)
    if value is None:
        if default is None:
            raise NodeError(400, f"{name} is required (Unix milliseconds as a string)")
        return default
    if isinstance(value, bool):
        raise NodeError(400, f"{name} must be Unix milliseconds as a string")
    if isinstance(value, int):
        return value
    if isinstance(value, str):
        if value.isdigit():
            return int(value)
        try:
            parsed = datetime.fromisoformat(value.replace("Z", "+00:00"))
        except ValueError:
            pass
        else:
            return int(parsed.timestamp() * 1000)
    raise NodeError(400, f"{name} must be Unix milliseconds as a string")


def _unit(amount: dict[str, str]) -> str:
    return amount["unit"]


def _amounts(value: Any) -> list[dict[str, str]]:
    if not isinstance(value, list) or len(value) > 10:
        raise NodeError(400, "Amounts must be a list of at most 10 {unit, amount}")
    out = []
    for item in value:
        if not isinstance(item, dict) or not isinstance(item.get("unit"), str):
            raise NodeError(400, "each amount needs a unit and an amount")
        amount = str(item.get("amount", ""))
        if not amount.isdigit():
            raise NodeError(400, "amount must be a whole number of the unit, as a string")
        out.append({"unit": item["unit"], "amount": amount})
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

    def error(status: int, message: str) -> Response:
        return respond(status, {"status": "error", "error": {"message": message}})

    def endpoint(
        handler: Handler, right: str, *, testing: bool = False
    ) -> Callable[[Request], Awaitable[Response]]:
        async def run(request: Request) -> Response:
            if testing and not node.config.testing:
                return error(404, "Not found")
            if node.config.unavailable_for > 0 and not testing:
                node.config.unavailable_for -= 1
                return error(503, "the payment node is unavailable")
            token = request.headers.get("token", "")
            rights = next(
                (r for t, r in node.config.tokens.items() if hmac.compare_digest(t, token)), None
            )
            if not token or rights is None:
                return error(401, "Unauthorized: a valid token header is required")
            if right not in rights and "admin" not in rights:
                return error(403, f"the token lacks the {right} right")
            raw = await request.body()
            if len(raw) > MAX_BODY_BYTES:
                return error(413, "body too large")
            try:
                body = json.loads(raw) if raw else {}
            except ValueError:
                return error(400, "the body must be JSON")
            if not isinstance(body, dict):
                return error(400, "the body must be a JSON object")
            try:
                data = handler(body)
            except NodeError as exc:
                return error(exc.status, exc.message)
            return respond(200, {"status": "success", "data": data})

        return run

    def seller(method: Callable[[dict[str, Any]], Escrow]) -> Handler:
        return lambda body: node.view(method(body), buyer=False)

    def buyer(method: Callable[[dict[str, Any]], Escrow]) -> Handler:
        return lambda body: node.view(method(body), buyer=True)

    def resolve_purchase(body: dict[str, Any]) -> dict[str, Any]:
        escrow = node.get(_network(body), _text(body, "blockchainIdentifier", 1, 10_000))
        if not escrow.purchased:
            raise NodeError(404, "Purchase not found")
        return node.view(escrow, buyer=True)

    def recover(body: dict[str, Any]) -> dict[str, Any]:
        escrow = node.get(_network(body), _text(body, "blockchainIdentifier", 1, 10_000))
        raise NodeError(
            409, f"the purchase is not waiting for manual action ({escrow.on_chain_state})"
        )

    def move_clock(body: dict[str, Any]) -> dict[str, Any]:
        advance = body.get("advanceMs")
        if not isinstance(advance, int) or isinstance(advance, bool) or advance < 0:
            raise NodeError(400, "advanceMs must be a non-negative integer")
        node.clock.offset_ms += advance
        return {"now": str(node.clock.now_ms()), "offsetMs": node.clock.offset_ms}

    def chain(body: dict[str, Any]) -> dict[str, Any]:
        if "lockFunds" in body:
            node.config.lock_funds = bool(body["lockFunds"])
        if "unavailableFor" in body:
            node.config.unavailable_for = max(0, int(body["unavailableFor"]))
        return {"lockFunds": node.config.lock_funds, "unavailableFor": node.config.unavailable_for}

    routes = [
        ("/payment", seller(node.create_payment), "pay"),
        ("/payment/", seller(node.create_payment), "pay"),
        (
            "/payment/resolve-blockchain-identifier",
            seller(lambda b: node.get(_network(b), _text(b, "blockchainIdentifier", 1, 10_000))),
            "read",
        ),
        ("/payment/submit-result", seller(node.submit_result), "pay"),
        ("/payment/authorize-refund", seller(node.authorize_refund), "pay"),
        ("/purchase", buyer(node.create_purchase), "pay"),
        ("/purchase/", buyer(node.create_purchase), "pay"),
        ("/purchase/resolve-blockchain-identifier", resolve_purchase, "read"),
        ("/purchase/request-refund", buyer(node.request_refund), "pay"),
        ("/purchase/cancel-refund-request", buyer(node.cancel_refund_request), "pay"),
        ("/purchase/error-state-recovery", recover, "pay"),
        ("/registry", node.register, "pay"),
    ]
    testing_routes = [("/testing/clock", move_clock), ("/testing/chain", chain)]
    return Starlette(
        routes=[
            *(Route(f"/api/v1{p}", endpoint(h, r), methods=["POST"]) for p, h, r in routes),
            *(
                Route(f"/api/v1{p}", endpoint(h, "admin", testing=True), methods=["POST"])
                for p, h in testing_routes
            ),
        ]
    )


def local_node(
    token: str, *, testing: bool = False, read_token: str | None = None
) -> tuple[PaymentNode, Starlette]:
    """A node with one full-rights key (and optionally a read-only one)."""
    tokens = {token: frozenset({"read", "pay", "admin"})}
    if read_token:
        tokens[read_token] = frozenset({"read"})
    node = PaymentNode(NodeConfig(tokens=tokens, testing=testing))
    return node, build_node_app(node)
