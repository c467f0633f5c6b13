"""The payment backend seam the dispatcher calls (docs/payments.md).

- ``CreditsBackend`` (default): Agora's ledger only — credits held at creation, captured on
  COMPLETED, refunded on FAILED/CANCELLED (``jobs.lifecycle``).
- ``MasumiBackend``: a paid agent that answers ``/start_job`` with payment fields is bought on
  Agora's buyer payment node. The dispatcher calls it at three points: ``on_started`` (after
  ``/start_job``; checks the MIP-004 input hash before anything is bought), ``step`` (instead of
  the plain ``/status`` poll: creates the purchase, follows it beside the agent's ``/status``,
  asks for refunds) and ``fail_fields`` (how a failing job keeps following its purchase).

Every node and agent call happens outside any database transaction; each outcome is written in
one short transaction (``_write``) through ``jobs.lifecycle``, which alone changes job status
and settles credits — once (compare-and-set on ``settled``).
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any, Protocol

import structlog

from agora.dispatch import repository as dispatch_repo
from agora.jobs import lifecycle
from agora.kit.db import Database
from agora.kit.money import fee_for, to_display
from agora.kit.outbound import OutboundPolicy
from agora.kit.timeutil import isoformat, utcnow
from agora.mip003 import hashes
from agora.mip003.client import Mip003Client
from agora.mip003.errors import AgentError
from agora.mip003.types import StartedJob
from agora.models import Job
from agora.models.statuses import JobType, PricingType
from agora.payments.client import (
    NodeConflict,
    NodeError,
    NodeRejected,
    NodeUnavailable,
    PaymentNodeClient,
    Purchase,
)
from agora.settings import Settings


class DispatchSteps(Protocol):
    """What a payment backend may use of the dispatcher that drives it (dispatch/worker.py):
    the database, the MIP-003 client, the lease owner, and two steps of its own."""

    db: Database
    client: Mip003Client
    owner: str

    def queued_fields(self, delay: float) -> dict[str, Any]: ...

    async def retry_agent_call(self, job: Job, endpoint: str, exc: AgentError) -> None: ...


log = structlog.get_logger(__name__)

MASUMI = "masumi"
DYNAMIC = PricingType.DYNAMIC.value  # job.payment["pricing"] of a Dynamic-priced job
HOUR_MS = 3_600_000

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


@dataclass(frozen=True)
class StartPlan:
    """What ``/start_job``'s answer means for payment: extra job fields (and what the RUNNING
    event adds to its detail), or a failure."""

    fields: dict[str, Any] = field(default_factory=dict)
    failure: str | None = None
    detail: dict[str, Any] = field(default_factory=dict)


# The V2 payment-source fields of a /start_job answer (masumi-payment-service aca3833,
# src/routes/api/purchases/schemas.ts createPurchaseInitSchemaInput): inside the seller's
# signature (purchases/shared.ts buildSignedBlockchainIdentifierPayload), forwarded to the
# purchase as given.
SOURCE_TEXT_FIELDS = ("paymentSourceType", "sellerReturnAddress", "smartContractAddress")
PAYMENT_SOURCE_TYPES = ("Web3CardanoV1", "Web3CardanoV2")


def signed_source_fields(raw: Mapping[str, Any]) -> tuple[dict[str, Any], str | None]:
    found: dict[str, Any] = {}
    for name in SOURCE_TEXT_FIELDS:
        value = raw.get(name)
        if value in (None, ""):
            continue
        if not isinstance(value, str) or len(value) > 250:
            return {}, f"{name} must be a string of at most 250 characters"
        found[name] = value
    if found.get("paymentSourceType", PAYMENT_SOURCE_TYPES[0]) not in PAYMENT_SOURCE_TYPES:
        return {}, "paymentSourceType must be Web3CardanoV1 or Web3CardanoV2"
    index = raw.get("supportedPaymentSourceIndex")
    if index is not None:
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index <= 24:
            return {}, "supportedPaymentSourceIndex must be an integer from 0 to 24"
        found["supportedPaymentSourceIndex"] = index
    return found, None


def signed_amounts(raw: Mapping[str, Any]) -> tuple[list[dict[str, str]] | None, str | None]:
    """The seller's signed amounts: ``Amounts`` (the purchase's name), ``RequestedFunds`` (the
    node's payment object) or ``amounts`` (older agents); each ``{amount, unit}``, at most 7
    (the node's limit), whole positive amounts."""
    for name in ("Amounts", "RequestedFunds", "amounts"):
        value = raw.get(name)
        if value is None or value == []:
            continue
        if not isinstance(value, list) or len(value) > 7:
            return None, f"{name} must be a list of at most 7 {{amount, unit}}"
        out: list[dict[str, str]] = []
        for item in value:
            if not isinstance(item, dict):
                return None, f"each of {name} must be an {{amount, unit}} object"
            amount, unit = item.get("amount"), item.get("unit", "")
            text = str(amount) if isinstance(amount, (int, str)) and amount is not True else ""
            if not text.isdigit() or len(text) > 25 or int(text) <= 0:
                return None, f"{name}: each amount must be a positive whole number"
            if not isinstance(unit, str) or len(unit) > 150:
                return None, f"{name}: each unit must be a string of at most 150 characters"
            out.append({"amount": text, "unit": unit})
        return out, None
    return None, None


def _unit(unit: str) -> str:
    """The node's unit: lovelace is the empty unit (masumi-payment-service aca3833,
    src/utils/shared/transformers.ts normalizePurchaseUnit)."""
    return "" if unit.lower() == "lovelace" else unit


class PaymentBackend(Protocol):
    name: str

    def on_started(self, job: Job, started: StartedJob) -> StartPlan: ...

    def follows(self, job: Job) -> bool: ...

    def fail_fields(self, job: Job, dispatcher: DispatchSteps) -> dict[str, Any]: ...

    async def step(self, dispatcher: DispatchSteps, job: Job, base_url: str) -> None: ...

    async def aclose(self) -> None: ...


class CreditsBackend:
    name = "credits"

    def on_started(self, job: Job, started: StartedJob) -> StartPlan:
        return StartPlan()

    def follows(self, job: Job) -> bool:
        return False

    def fail_fields(self, job: Job, dispatcher: DispatchSteps) -> dict[str, Any]:
        return {}

    async def step(self, dispatcher: DispatchSteps, job: Job, base_url: str) -> None:
        raise RuntimeError("the credits backend follows no purchase")

    async def aclose(self) -> None:
        return None


_NODE_CLIENTS: dict[tuple[str, str, str, float, str], PaymentNodeClient] = {}


def payment_backend(
    settings: Settings, *, local: Mapping[str, Any] | None = None
) -> PaymentBackend:
    """The configured backend. ``local``: in-process routes (the embedded node, ``app.py``)."""
    if settings.payment_backend == MASUMI and settings.payment_node_embedded:
        from agora.payments import embedded

        settings = settings.model_copy(
            update={
                "masumi_payment_url": embedded.node_url(settings),
                "masumi_payment_token": embedded.node_token(settings),
            }
        )
    if settings.payment_backend == MASUMI:
        if not settings.masumi_payment_url or not settings.masumi_payment_token:
            raise ValueError(
                "AGORA_PAYMENT_BACKEND=masumi needs AGORA_MASUMI_PAYMENT_URL and "
                "AGORA_MASUMI_PAYMENT_TOKEN"
            )
        policy = OutboundPolicy.from_setting(settings.outbound_allow)
        if local:  # this app's own in-process node: a client of its own
            own = PaymentNodeClient(
                settings.masumi_payment_url,
                settings.masumi_payment_token,
                network=settings.masumi_network,
                timeout=settings.masumi_timeout_seconds,
                policy=policy,
                local=local,
            )
            return MasumiBackend(own, settings)
        key = (
            settings.masumi_payment_url,
            settings.masumi_payment_token,
            settings.masumi_network,
            settings.masumi_timeout_seconds,
            settings.outbound_allow or "",
        )
        node = _NODE_CLIENTS.get(key)
        if node is None:  # one pooled client per node per process (dispatchers share it)
            node = _NODE_CLIENTS[key] = PaymentNodeClient(
                settings.masumi_payment_url,
                settings.masumi_payment_token,
                network=settings.masumi_network,
                timeout=settings.masumi_timeout_seconds,
                policy=policy,
            )
        return MasumiBackend(node, settings)
    if settings.payment_backend != "credits":
        raise ValueError(f"unknown payment backend {settings.payment_backend!r}")
    return CreditsBackend()


def _ms(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.isdigit():
        return int(value)
    return None


def now_ms() -> int:
    return int(time.time() * 1000)


class MasumiBackend:
    name = MASUMI

    def __init__(self, node: PaymentNodeClient, settings: Settings) -> None:
        self.node, self.settings = node, settings

    async def aclose(self) -> None:
        return None  # the node client is shared by the process's dispatchers

    def follows(self, job: Job) -> bool:
        return job.payment_backend == MASUMI and not job.settled

    # ---- start ---------------------------------------------------------------------------

    def on_started(self, job: Job, started: StartedJob) -> StartPlan:
        raw = started.raw
        dynamic = (job.payment or {}).get("pricing") == DYNAMIC
        if dynamic and not raw.get("blockchainIdentifier"):  # its price is the seller's to name
            return StartPlan(
                failure="the Dynamic-priced agent answered without payment fields; nothing was "
                "bought"
            )
        if job.job_type != JobType.PAID or not raw.get("blockchainIdentifier"):
            return StartPlan()  # a free job, or an agent that sells through Agora's credits
        missing = [
            k
            for k in ("payByTime", "submitResultTime", "agentIdentifier", "sellerVKey")
            if raw.get(k) in (None, "")
        ]
        if missing:
            return StartPlan(failure=f"the agent's /start_job answer lacks {', '.join(missing)}")
        echo = raw.get("identifierFromPurchaser")
        if echo is not None and echo != job.identifier_from_purchaser:
            return StartPlan(failure="the agent echoed another identifierFromPurchaser")
        data = job.input_data or {}
        computed = hashes.input_hashes(job.identifier_from_purchaser, data)
        rule = hashes.match_input_hash(job.identifier_from_purchaser, data, started.input_hash)
        if rule is None:
            return StartPlan(
                failure=(
                    f"input hash mismatch: the agent sent {started.input_hash!r}, MIP-004 gives "
                    f"{computed['sdk']!r} (the SDK's canonical JSON)"
                    + (f" or {computed['jcs']!r} (RFC 8785)" if "jcs" in computed else "")
                    + "; nothing was bought"
                )
            )
        pay_by, submit = _ms(raw.get("payByTime")), _ms(raw.get("submitResultTime"))
        if pay_by is None or submit is None:
            return StartPlan(failure="payByTime and submitResultTime must be Unix milliseconds")
        unlock = _ms(raw.get("unlockTime")) or submit + 6 * HOUR_MS
        dispute = _ms(raw.get("externalDisputeUnlockTime")) or submit + 12 * HOUR_MS
        source, problem = signed_source_fields(raw)
        if problem is None:
            amounts, problem = signed_amounts(raw)
        if problem is not None:
            return StartPlan(failure=f"the agent's /start_job answer: {problem}")
        payment: dict[str, Any] = {
            **(job.payment or {}),
            "network": self.settings.masumi_network,
            "agentIdentifier": str(raw["agentIdentifier"]),
            "sellerVKey": str(raw["sellerVKey"]),
            "payByTime": pay_by,
            "submitResultTime": submit,
            "unlockTime": unlock,
            "externalDisputeUnlockTime": dispute,
            "inputHashRule": rule,
            "purchased": False,
        }
        if source:
            payment["source"] = source  # V2: inside the seller's signature, forwarded unchanged
        if amounts is not None:
            payment["amounts"] = amounts  # the seller's signed amounts: the purchase's Amounts
        fields: dict[str, Any] = {}
        if dynamic:
            charged, problem = self._dynamic_charge(job, amounts)
            if charged is None:
                return StartPlan(failure=problem)
            payment["chargedCredits"], fields["fee"] = charged
        return StartPlan(
            fields={
                **fields,
                "payment_backend": MASUMI,
                "blockchain_identifier": str(raw["blockchainIdentifier"]),
                "input_hash": computed[rule],
                "on_chain_status": None,
                "agent_job_status": "awaiting_payment",
                "payment": payment,
            },
            detail={"inputHashRule": rule},
        )

    def _dynamic_charge(
        self, job: Job, amounts: list[dict[str, str]] | None
    ) -> tuple[tuple[int, int] | None, str | None]:
        """A Dynamic-priced job: what the seller's signed amounts cost in credits (the agent's
        part, rounded up, plus the marketplace fee), refused above the ceiling the buyer
        accepted (``job.price``, the amount held)."""
        if not amounts:
            return None, "the Dynamic-priced agent answered without its signed amounts"
        per_credit = self.settings.masumi_units_per_credit
        if per_credit <= 0:
            return None, (
                "a Dynamic-priced agent cannot be priced in credits: "
                "AGORA_MASUMI_UNITS_PER_CREDIT is not set; nothing was bought"
            )
        unit = _unit(self.settings.masumi_price_unit)
        others = sorted({a["unit"] or "lovelace" for a in amounts if _unit(a["unit"]) != unit})
        if others:
            return None, (
                f"the agent asks to be paid in {', '.join(others)}; Agora prices only "
                f"{self.settings.masumi_price_unit}; nothing was bought"
            )
        units = sum(int(a["amount"]) for a in amounts)
        agent_part = -(-units // per_credit)  # base credits, rounded up
        fee = fee_for(agent_part, self.settings.marketplace_fee_bps)
        total = agent_part + fee
        if total > job.price:
            return None, (
                f"the agent asks {to_display(total)} credits (fee included), above the "
                f"{to_display(job.price)} you accept; nothing was bought"
            )
        return (total, fee), None

    def fail_fields(self, job: Job, dispatcher: DispatchSteps) -> dict[str, Any]:
        """A purchased job that fails keeps following its purchase: the node refunds the buyer
        (Agora asks for it), then the credits are refunded."""
        if not self.follows(job) or not (job.payment or {}).get("purchased"):
            return {}
        payment = {**(job.payment or {}), "autoRefund": True}
        return {"settle": False, "payment": payment, **dispatcher.queued_fields(0)}

    # ---- following ---------------------------------------------------------------------

    async def step(self, dispatcher: DispatchSteps, job: Job, base_url: str) -> None:
        payment = dict(job.payment or {})
        if not payment.get("purchased"):
            await self._purchase(dispatcher, job, payment)
            return
        assert job.blockchain_identifier is not None
        try:
            purchase = await self.node.resolve_purchase(job.blockchain_identifier)
        except NodeError as exc:
            await self._node_retry(dispatcher, job, "resolve-blockchain-identifier", exc)
            return
        events: list[tuple[str, dict[str, Any]]] = []
        if purchase.next_action == MANUAL_ACTION and "manualAction" not in payment:
            # The node stopped on this purchase (a batch or a transaction failed): an operator
            # recovers it there (error-state-recovery); Agora keeps following.
            note = _error_note(purchase)
            payment["manualAction"] = {"note": note, "at": isoformat(utcnow())}
            events.append(("node_manual_action", {"note": note}))
            log.warning("payment_node_manual_action", job_id=str(job.id), note=note)
        elif purchase.next_action != MANUAL_ACTION:
            payment.pop("manualAction", None)
        clear_refund = False
        wants_refund = job.refund_requested_at is not None or (
            payment.get("autoRefund") and purchase.on_chain_state == FUNDS_LOCKED
        )
        retry_in: float | None = None  # a refund request to ask again
        if wants_refund and purchase.on_chain_state in REFUNDABLE_STATES:
            try:
                purchase = await self.node.request_refund(job.blockchain_identifier)
                clear_refund = True
                payment.pop("refundAttempts", None)
            except NodeUnavailable as exc:
                await self._node_retry(dispatcher, job, "request-refund", exc)
                return
            except NodeError as exc:
                retry_in = self._refund_refused(job, payment, purchase, exc, events)
                clear_refund = retry_in is None
        elif wants_refund and job.refund_requested_at is not None:
            clear_refund = True  # the state moved on meanwhile; nothing left to ask
        payment.update(nodeTimeMs=purchase.node_time_ms, skewMs=purchase.node_time_ms - now_ms())
        if clear_refund:
            payment.pop("autoRefund", None)
        state = purchase.on_chain_state
        fields: dict[str, Any] = {"payment": payment, "attempts": 0}
        if clear_refund:
            fields["refund_requested_at"] = None
        if state != job.on_chain_status:
            fields["on_chain_status"] = state
            fields["updated_at"] = utcnow()
            events.append(_state_event(job.on_chain_status, purchase))
            if state in REFUND_EVENTS:
                events.append((REFUND_EVENTS[state], {"onChainStatus": state}))
        final = job.status in lifecycle.FINAL_STATUSES
        now = purchase.node_time_ms

        # Settlement: the node says who got the funds.
        refunded = state in REFUNDED_STATES or (state is None and now > payment["payByTime"])
        if refunded:
            reason = (
                "the funds were never locked before payByTime"
                if state is None
                else f"the purchase ended {state}: the buyer was refunded"
            )
            if final:
                await self._write(
                    dispatcher,
                    job,
                    events,
                    refund_credits=True,
                    settle_detail={"onChainStatus": state, "credits": "refunded"},
                    **fields,
                )
            else:
                await self._write(
                    dispatcher,
                    job,
                    events,
                    to_status=lifecycle.FAILED,
                    detail={"reason": reason, "onChainStatus": state},
                    refund_credits=True,
                    settle_detail={"onChainStatus": state, "credits": "refunded"},
                    error=reason,
                    **fields,
                )
            return
        if state == WITHDRAWN and final:
            await self._write(
                dispatcher,
                job,
                events,
                refund_credits=False,
                settle_detail={"onChainStatus": state, "credits": "captured"},
                **fields,
            )
            return
        if final or state is None or state in PENDING_REFUND_STATES or retry_in is not None:
            delay = self.settings.masumi_follow_seconds if final else self._poll_delay(job)
            delay = min(delay, retry_in) if retry_in is not None else delay
            await self._write(dispatcher, job, events, **fields, **_due(delay))
            return
        await self._follow_agent(dispatcher, job, base_url, purchase, payment, events, fields)

    async def _follow_agent(
        self,
        dispatcher: DispatchSteps,
        job: Job,
        base_url: str,
        purchase: Purchase,
        payment: dict[str, Any],
        events: list[tuple[str, dict[str, Any]]],
        fields: dict[str, Any],
    ) -> None:
        assert job.agent_job_id is not None
        try:
            status = await dispatcher.client.status(base_url, job.agent_job_id)
        except AgentError as exc:
            await dispatcher.retry_agent_call(job, "status", exc)
            return
        value = status.status
        now = purchase.node_time_ms
        late = now >= payment["submitResultTime"] and purchase.result_hash is None
        follow = dispatcher.queued_fields(self.settings.masumi_follow_seconds)
        if value == "completed" and purchase.result_hash is not None:
            result = status.result if status.result is not None else ""
            # Either rule verifies: the SDK's (JSON-escaped) or MIP-004's text (the raw string)
            computed = hashes.result_hashes(job.identifier_from_purchaser, result)
            rule = hashes.match_result_hash(
                job.identifier_from_purchaser, result, purchase.result_hash
            )
            verified = rule is not None
            ours = computed[rule] if rule is not None else computed["sdk"]
            detail: dict[str, Any] = {"agentStatus": value, "verified": verified}
            if rule is not None:
                detail["resultHashRule"] = rule
            else:
                detail["reason"] = "result hash mismatch"
                events.append(
                    (
                        "result_hash_mismatch",
                        {"onChain": purchase.result_hash, "computed": ours},
                    )
                )
            await self._write(
                dispatcher,
                job,
                events,
                to_status=lifecycle.COMPLETED,
                detail=detail,
                result=result,
                result_hash=ours,
                verified=verified,
                agent_job_status=value,
                **{**fields, **follow},
            )
        elif value == "failed" or late:
            reason = (
                status.message or status.result or "the agent reported that the job failed"
                if value == "failed"
                else "the agent submitted no result before submitResultTime"
            )
            payment["autoRefund"] = True
            await self._write(
                dispatcher,
                job,
                events,
                to_status=lifecycle.FAILED,
                detail={"agentStatus": value, "reason": reason},
                error=reason,
                agent_job_status=value,
                **{**fields, **dispatcher.queued_fields(0)},
            )
        elif value == "awaiting_input" and status.input_schema is not None:
            await self._write(
                dispatcher,
                job,
                events,
                to_status=lifecycle.INPUT_REQUIRED,
                detail={"agentStatus": value, "statusId": status.status_id},
                agent_job_status=value,
                input_request=status.input_request(),
                **fields,
                dispatch_state=dispatch_repo.WAITING_INPUT,
                lease_owner=None,
                lease_expires_at=None,
                next_attempt_at=None,
            )
        else:  # running, awaiting_payment, or completed with no result hash on chain yet
            if value != job.agent_job_status:
                fields.update(agent_job_status=value, updated_at=utcnow())
            await self._write(dispatcher, job, events, **fields, **_due(self._poll_delay(job)))

    def _refund_refused(
        self,
        job: Job,
        payment: dict[str, Any],
        purchase: Purchase,
        exc: NodeError,
        events: list[tuple[str, dict[str, Any]]],
    ) -> float | None:
        """The node refused ``request-refund``: the seconds until it is asked again, or None.

        A 409 ("Purchase state changed concurrently; retry against the new state") and a 404
        ("Purchase not found or not in valid state": the purchase is busy — funds still
        locking, another action pending) are retried with back-off while the contract's refund
        window is open (before ``unlockTime``, on the node's clock). After it — or on any
        other refusal — the request is dropped and the job marked ``refundStuck`` (an event
        and a warning in the log): it stays followed, its credits held, until an operator
        settles it with the node (docs/payments.md, "Refunds that cannot be asked")."""
        attempt = int(payment.get("refundAttempts") or 0) + 1
        retryable = isinstance(exc, NodeConflict) or exc.status_code == 404
        window_open = purchase.node_time_ms < int(payment["unlockTime"])
        if retryable and window_open:
            delay = float(
                min(
                    self.settings.masumi_follow_seconds,
                    self.settings.agent_retry_seconds * 2 ** min(attempt - 1, 10),
                )
            )
            payment["refundAttempts"] = attempt
            events.append(
                (
                    "refund_retry",
                    {
                        "status": exc.status_code,
                        "error": exc.message,
                        "attempt": attempt,
                        "retryInSeconds": delay,
                    },
                )
            )
            return delay
        payment.pop("refundAttempts", None)
        stuck = {
            "status": exc.status_code,
            "error": exc.message,
            "attempts": attempt,
            "windowClosed": not window_open,
            "onChainStatus": purchase.on_chain_state,
            "at": isoformat(utcnow()),
        }
        payment["refundStuck"] = stuck
        events.append(("refund_stuck", stuck))
        log.warning("payment_refund_stuck", job_id=str(job.id), **stuck)
        return None

    def _poll_delay(self, job: Job) -> float:
        return min(
            self.settings.status_poll_max_seconds,
            max(self.settings.status_poll_initial_seconds, (job.poll_interval or 0) * 2),
        )

    # ---- buying ------------------------------------------------------------------------

    def purchase_body(self, job: Job) -> dict[str, Any]:
        payment = job.payment or {}
        body: dict[str, Any] = {
            "agentIdentifier": payment["agentIdentifier"],
            "inputHash": job.input_hash,
            "blockchainIdentifier": job.blockchain_identifier,
            "network": payment["network"],
            "sellerVkey": payment["sellerVKey"],
            "identifierFromPurchaser": job.identifier_from_purchaser,
            "payByTime": str(payment["payByTime"]),
            "submitResultTime": str(payment["submitResultTime"]),
            "unlockTime": str(payment["unlockTime"]),
            "externalDisputeUnlockTime": str(payment["externalDisputeUnlockTime"]),
            "metadata": f"agora job {job.id}",
            **payment.get("source", {}),
        }
        if payment.get("amounts"):  # the seller's signed amounts, unchanged
            body["Amounts"] = payment["amounts"]
        elif self.settings.masumi_units_per_credit > 0:  # the drift guard of Fixed prices
            amount = (job.price - job.fee) * self.settings.masumi_units_per_credit
            body["Amounts"] = [{"unit": self.settings.masumi_price_unit, "amount": str(amount)}]
        return body

    async def _purchase(self, dispatcher: DispatchSteps, job: Job, payment: dict[str, Any]) -> None:
        if not hashes.valid_purchaser_identifier(job.identifier_from_purchaser):
            await self._fail_unbought(dispatcher, job, "identifierFromPurchaser is not 14-26 hex")
            return
        body = self.purchase_body(job)
        events: list[tuple[str, dict[str, Any]]] = []
        try:
            purchase = await self.node.create_purchase(body)
        except NodeConflict as conflict:
            # "Purchase exists" (our earlier attempt whose answer was lost?): resolve it and
            # compare the fields the real Purchase object has (masumi-payment-service aca3833,
            # src/routes/api/purchases/schemas.ts purchaseResponseSchema: no
            # identifierFromPurchaser, network or sellerVkey).
            assert job.blockchain_identifier is not None
            try:
                purchase = await self.node.resolve_purchase(job.blockchain_identifier)
            except NodeError as exc:
                await self._node_retry(dispatcher, job, "resolve-blockchain-identifier", exc)
                return
            differs = _differences(purchase.data, body)
            if differs:
                await self._fail_unbought(
                    dispatcher,
                    job,
                    f"the node holds a different purchase for this job ({', '.join(differs)})",
                )
                return
            events.append(
                (
                    "purchase_recovered",
                    {
                        "reason": f"409 on create ({conflict.message}); resolved, same",
                        "purchaseId": purchase.data.get("id") or conflict.payload.get("id"),
                    },
                )
            )
        except NodeUnavailable as exc:
            await self._node_retry(dispatcher, job, "purchase", exc)
            return
        except NodeRejected as exc:
            await self._fail_unbought(dispatcher, job, f"the payment node refused: {exc.message}")
            return
        payment.update(
            purchased=True,
            nodeTimeMs=purchase.node_time_ms,
            skewMs=purchase.node_time_ms - now_ms(),
        )
        events.append(
            (
                "purchase_created",
                {
                    "onChainStatus": purchase.on_chain_state,
                    "nextAction": purchase.next_action,
                    "txHash": purchase.tx_hash,
                },
            )
        )
        await self._write(
            dispatcher,
            job,
            events,
            payment=payment,
            on_chain_status=purchase.on_chain_state,
            attempts=0,
            **_due(self.settings.status_poll_initial_seconds),
        )

    async def _fail_unbought(self, dispatcher: DispatchSteps, job: Job, reason: str) -> None:
        """Nothing was locked: fail the job and refund its credits now."""
        await self._write(
            dispatcher,
            job,
            [],
            to_status=lifecycle.FAILED,
            detail={"reason": reason},
            refund_credits=True,
            settle_detail={"onChainStatus": None, "credits": "refunded"},
            error=reason,
        )

    async def _node_retry(
        self, dispatcher: DispatchSteps, job: Job, endpoint: str, exc: NodeError
    ) -> None:
        attempts = job.attempts + 1
        log.info(
            "payment_node_call_failed", job_id=str(job.id), endpoint=endpoint, error=exc.message
        )
        event = ("node_error", {"endpoint": endpoint, "error": exc.message, "attempt": attempts})
        purchased = bool((job.payment or {}).get("purchased"))
        if attempts >= self.settings.masumi_max_node_attempts and not purchased:
            await self._fail_unbought(
                dispatcher,
                job,
                f"the payment node failed {attempts} times in a row; last error: {exc.message}",
            )
            return
        # Once bought, the funds are on chain: keep following (capped back-off), never guess.
        delay = min(
            self.settings.masumi_follow_seconds,
            self.settings.agent_retry_seconds * 2 ** min(attempts - 1, 10),
        )
        await self._write(dispatcher, job, [event], attempts=attempts, **_due(delay))

    # ---- writing -------------------------------------------------------------------------

    async def _write(
        self,
        dispatcher: DispatchSteps,
        job: Job,
        events: list[tuple[str, dict[str, Any]]],
        *,
        to_status: str | None = None,
        detail: dict[str, Any] | None = None,
        refund_credits: bool | None = None,
        settle_detail: dict[str, Any] | None = None,
        **fields: Any,
    ) -> bool:
        """One short transaction: the status change or release, the events, the settlement."""
        async with dispatcher.db.transaction() as session:
            current = await dispatch_repo.get(session, job.id)
            if current is None or current.status != job.status:
                return False
            if current.lease_owner != dispatcher.owner:
                return False
            if to_status is not None:
                ok = await lifecycle.transition(
                    session, current, to_status, detail=detail, settle=False, **fields
                )
            else:
                ok = await dispatch_repo.release(session, job.id, dispatcher.owner, **fields)
            if not ok:
                return False
            for event_type, event_detail in events:
                await lifecycle.record_event(session, current, event_type, detail=event_detail)
            if refund_credits is not None:
                charged = (current.payment or {}).get("chargedCredits")  # a Dynamic price
                await lifecycle.settle_payment(
                    session,
                    current,
                    refund=refund_credits,
                    detail=settle_detail or {},
                    captured=int(charged) if charged is not None else None,
                )
            return True


# What a buyer compares between its purchase body and the node's Purchase object
RECOVERY_FIELDS: tuple[str, ...] = ("inputHash", "payByTime", "submitResultTime")
RECOVERY_FIELDS += ("unlockTime", "externalDisputeUnlockTime")


def _differences(found: Mapping[str, Any], body: Mapping[str, Any]) -> list[str]:
    """Where the node's Purchase differs from what Agora buys. ``agentIdentifier`` is nullable
    on the real object (decoded from the identifier): compared only when present."""
    names = [k for k in ("blockchainIdentifier", "agentIdentifier") if found.get(k) is not None]
    return [k for k in (*names, *RECOVERY_FIELDS) if str(found.get(k)) != str(body[k])]


MANUAL_ACTION = "WaitingForManualAction"


def _error_note(purchase: Purchase) -> str | None:
    action = purchase.data.get("NextAction")
    note = action.get("errorNote") if isinstance(action, dict) else None
    return str(note)[:500] if note else None


def _due(delay: float) -> dict[str, Any]:

    return {"poll_interval": delay, "next_attempt_at": utcnow() + timedelta(seconds=delay)}


def _state_event(before: str | None, purchase: Purchase) -> tuple[str, dict[str, Any]]:
    return (
        "payment_state",
        {
            "from": before,
            "onChainStatus": purchase.on_chain_state,
            "nextAction": purchase.next_action,
            "txHash": purchase.tx_hash,
        },
    )
