"""The local payment node's rules over its escrow book (the chain): the seller's and the buyer's
actions, each checked as the real node checks it (each rule names the file it mirrors in
masumi-payment-service aca3833), and what time makes true (the batches and the chain)."""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import secrets
from collections import OrderedDict
from typing import Any

from agora.mip003.hashes import valid_hash, valid_purchaser_identifier
from agora.sandbox.payment_node import checks
from agora.sandbox.payment_node.state import (
    AUTHORIZE_REFUND_REQUESTED,
    DISPUTED,
    DISPUTED_WITHDRAWN,
    FINAL_STATES,
    FUNDS_LOCKED,
    FUNDS_LOCKING_REQUESTED,
    HOUR_MS,
    MAX_ESCROWS,
    NONE,
    PAYMENT_INVALID,
    PURCHASE_EXISTS,
    PURCHASE_INVALID,
    REFUND_AUTHORIZED,
    REFUND_INVALID,
    REFUND_REQUESTED,
    REFUND_WITHDRAWN,
    RESULT_SUBMITTED,
    SET_REFUND_REQUESTED,
    SUBMIT_RESULT_REQUESTED,
    UNSET_REFUND_REQUESTED,
    V1,
    V2,
    WAITING_EXTERNAL,
    WAITING_MANUAL,
    WITHDRAWN,
    Escrow,
    NodeClock,
    NodeConfig,
    NodeError,
)
from agora.sandbox.payment_node.views import payment_view, purchase_view


def _cuid() -> str:
    return "c" + secrets.token_hex(12)


def _purchase_source(body: dict[str, Any], decoded: dict[str, Any]) -> tuple[Any, str]:
    """A purchase's payment source, as the blockchain identifier decides it (V2 when the seller
    signed a smart contract address): the index and source type the signature covers."""
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
    return index, given_type or inferred


def _node_units(funds: list[dict[str, str]]) -> list[dict[str, str]]:
    """Amounts with the node's units (lovelace is the empty unit)."""
    return [{"amount": a["amount"], "unit": checks.node_unit(a["unit"])} for a in funds]


def _payment_source(body: dict[str, Any]) -> tuple[int | None, str]:
    """A seller's payment source: V2 when it selects one (``supportedPaymentSourceIndex``)."""
    index = body.get("supportedPaymentSourceIndex")
    if index is not None and (
        isinstance(index, bool) or not isinstance(index, int) or not 0 <= index <= 24
    ):
        raise NodeError(400, "supportedPaymentSourceIndex must be an integer from 0 to 24")
    source_type = V2 if index is not None else V1
    given_type = body.get("paymentSourceType")
    if given_type is not None and given_type != source_type:
        raise NodeError(400, "paymentSourceType does not match the agent registry source")
    return index, source_type


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
        network = checks.network(body)
        agent = checks.text(body, "agentIdentifier", 1, 250)
        purchaser = checks.text(body, "identifierFromPurchaser", 14, 26)
        if not valid_purchaser_identifier(purchaser):
            raise NodeError(400, "Purchaser identifier is not a valid hex string")
        digest = checks.text(body, "inputHash", 1, 250)
        if not valid_hash(digest):
            raise NodeError(400, "Input hash is not a valid hex string")
        key = (agent, purchaser, digest)
        existing = self.by_request.get(key)
        if existing is not None and existing in self.escrows:  # a repeated call: the same row
            return self.advance(self.escrows[existing])
        # ez.dateIn() with the schema's default (1970-01-01T12:00:00Z: "in the past")
        pay_by = checks.date(body, "payByTime", 12 * HOUR_MS)
        submit = checks.date(body, "submitResultTime", 12 * HOUR_MS)
        unlock = checks.date(body, "unlockTime", submit + 6 * HOUR_MS)
        dispute = checks.date(body, "externalDisputeUnlockTime", submit + 12 * HOUR_MS)
        checks.check_times(now, pay_by, submit, unlock, dispute)
        index, source_type = _payment_source(body)
        pricing_type, funds = self._pricing(agent, body)
        return_address = body.get("sellerReturnAddress") or self.config.seller_collection_address
        contract = self.config.v2_contract_address if index is not None else None
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
            "smartContractAddress": contract,
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
        self._keep(key, escrow)
        return escrow

    def _pricing(self, agent: str, body: dict[str, Any]) -> tuple[str, list[dict[str, str]]]:
        """The agent's pricing (registered here; else Dynamic when the payment names
        ``RequestedFunds``) and the funds its payment asks."""
        requested = body.get("RequestedFunds")
        pricing_type, listed = self.pricing.get(agent, ("Dynamic" if requested else "Fixed", []))
        if pricing_type == "Fixed" and requested is not None:
            raise NodeError(400, "For fixed pricing, RequestedFunds must be null")
        if pricing_type == "Dynamic" and not requested:
            raise NodeError(400, "For dynamic pricing, RequestedFunds must be provided")
        if pricing_type not in ("Fixed", "Dynamic"):
            raise NodeError(400, "Pricing type not supported for payments")
        if pricing_type != "Dynamic":
            return pricing_type, listed
        funds = checks.amounts(requested, "RequestedFunds")
        if any(int(a["amount"]) <= 0 for a in funds):
            raise NodeError(400, "RequestedFunds amounts must be positive")
        return pricing_type, funds

    def _keep(self, key: tuple[str, str, str], escrow: Escrow) -> None:
        """Book a new escrow (the oldest go beyond ``MAX_ESCROWS``)."""
        self.escrows[escrow.blockchain_identifier] = escrow
        self.by_request[key] = escrow.blockchain_identifier
        while len(self.escrows) > MAX_ESCROWS:
            _, old = self.escrows.popitem(last=False)
            self.by_request.pop(
                (old.agent_identifier, old.identifier_from_purchaser, old.input_hash)
            )

    def submit_result(self, body: dict[str, Any]) -> Escrow:
        """payments/submit-result/index.ts: FundsLocked, RefundRequested or Disputed with
        NextAction WaitingForExternalAction, else 404; the hash goes on chain later."""
        escrow = self.get(
            checks.network(body),
            checks.text(body, "blockchainIdentifier", 1, 8000),
            PAYMENT_INVALID,
        )
        digest = checks.text(body, "submitResultHash", 1, 250)
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
            checks.network(body),
            checks.text(body, "blockchainIdentifier", 1, 8000),
            PAYMENT_INVALID,
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

    def resolve_payment(self, body: dict[str, Any]) -> dict[str, Any]:
        """payments/resolve-blockchain-identifier."""
        identifier = checks.text(body, "blockchainIdentifier", 1, 8000)
        return payment_view(self.get(checks.network(body), identifier, "Payment not found"))

    def register(self, body: dict[str, Any]) -> dict[str, Any]:
        checks.network(body)
        name = checks.text(body, "name", 1, 250)
        pricing = body.get("AgentPricing")
        kinds = ("Fixed", "Free", "Dynamic")
        if not isinstance(pricing, dict) or pricing.get("pricingType") not in kinds:
            raise NodeError(400, "AgentPricing.pricingType must be Fixed, Free or Dynamic")
        kind = str(pricing["pricingType"])
        amounts = checks.amounts(pricing.get("Pricing") or [], "Pricing") if kind == "Fixed" else []
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
        network = checks.network(body)
        identifier = checks.text(body, "blockchainIdentifier", 1, 8000)
        existing = self.escrows.get(identifier)
        if existing is not None and existing.network == network and existing.purchased:
            self.advance(existing)
            raise NodeError(
                409,
                PURCHASE_EXISTS,
                {"id": existing.purchase_id, "object": purchase_view(existing)},
            )
        decoded = self._decode(identifier)
        if decoded is None:
            raise NodeError(400, "Invalid blockchain identifier, format invalid")
        index, source_type = _purchase_source(body, decoded)
        digest = checks.text(body, "inputHash", 1, 250)
        if not re.fullmatch(r"[0-9a-fA-F]*", digest):
            raise NodeError(400, "Input hash is not a valid hex string")
        escrow = existing
        if escrow is None or escrow.network != network:
            raise NodeError(404, "No payment source found for agent identifiers policy id")
        purchaser = checks.text(body, "identifierFromPurchaser", 14, 26)
        agent = checks.text(body, "agentIdentifier", 1, 250)
        seller_vkey = checks.text(body, "sellerVkey", 1, 250)
        times = [
            checks.ms_text(body, name)
            for name in ("payByTime", "submitResultTime", "unlockTime", "externalDisputeUnlockTime")
        ]
        checks.check_times(now, *times)
        if seller_vkey != decoded["sellerVkey"]:
            raise NodeError(400, "Invalid seller vkey")
        given = self._purchase_amounts(escrow, agent, body)
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
                _node_units(given) if escrow.pricing_type == "Dynamic" and given else None
            ),
            "payByTime": str(times[0]),
            "submitResultTime": str(times[1]),
            "unlockTime": str(times[2]),
            "externalDisputeUnlockTime": str(times[3]),
            "sellerReturnAddress": (
                body.get("sellerReturnAddress") or self.config.seller_collection_address
            ),
            "supportedPaymentSourceIndex": index,
            "paymentSourceType": source_type,
        }
        funds = decoded.get("requestedFunds")
        if rebuilt != {**decoded, "requestedFunds": _node_units(funds) if funds else None}:
            raise NodeError(400, "Invalid blockchain identifier, signature invalid")
        escrow.purchased = True
        escrow.purchase_amounts = given
        escrow.purchase_metadata = body.get("metadata")
        escrow.purchase_action = FUNDS_LOCKING_REQUESTED
        escrow.updated_at = now
        if self.config.lock_funds:
            self._schedule(escrow, "lock")
        return self.advance(escrow)

    def _purchase_amounts(
        self, escrow: Escrow, agent: str, body: dict[str, Any]
    ) -> list[dict[str, str]] | None:
        """The purchase's ``Amounts``: for a Fixed price, the agent's pricing when registered
        here; for a Dynamic one, required and positive."""
        amounts = body.get("Amounts")
        given = checks.amounts(amounts, "Amounts") if amounts is not None else None
        if escrow.pricing_type == "Fixed":
            listed = checks.unit_totals(escrow.requested_funds)
            if given is not None and agent in self.pricing and checks.unit_totals(given) != listed:
                raise NodeError(400, "Provided Amounts do not match the fixed pricing of the agent")
        else:
            if not given:
                raise NodeError(400, "For dynamic pricing, Amounts must be provided")
            if any(int(a["amount"]) <= 0 for a in given):
                raise NodeError(400, "Amounts must be positive")
        return given

    def resolve_purchase(self, body: dict[str, Any]) -> dict[str, Any]:
        """purchases/resolve-blockchain-identifier: a bought purchase, else 404."""
        identifier = checks.text(body, "blockchainIdentifier", 1, 8000)
        escrow = self.get(checks.network(body), identifier, "Purchase not found")
        if not escrow.purchased:
            raise NodeError(404, "Purchase not found")
        return {**purchase_view(escrow), "ActionHistory": None, "TransactionHistory": None}

    def recover(self, body: dict[str, Any]) -> dict[str, Any]:
        """purchases/error-state-recovery: clear a purchase's error state (an operator's act)."""
        identifier = checks.text(body, "blockchainIdentifier", 1, 8000)
        escrow = self.get(checks.network(body), identifier, "Purchase not found")
        if escrow.purchase_action != WAITING_MANUAL:
            raise NodeError(400, "Purchase request is not in an error state. No error to clear.")
        escrow.purchase_action, escrow.error_note = WAITING_EXTERNAL, None
        return purchase_view(escrow)

    def request_refund(self, body: dict[str, Any]) -> Escrow:
        """purchases/request-refund/index.ts: FundsLocked or ResultSubmitted with NextAction
        WaitingForExternalAction and a transaction, else 404; the state changes later."""
        escrow = self.get(
            checks.network(body), checks.text(body, "blockchainIdentifier", 1, 8000), REFUND_INVALID
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
            checks.network(body),
            checks.text(body, "blockchainIdentifier", 1, 8000),
            PURCHASE_INVALID,
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
