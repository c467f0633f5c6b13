"""``MasumiBackend``: a paid agent that answers ``/start_job`` with payment fields is bought on
Agora's buyer payment node, and the purchase is followed to its settlement (docs/payments.md).

The state machine of one followed job, one ``step`` per dispatcher round:

    not bought yet        → POST /purchase (a 409 "exists" is resolved and compared)
    bought                → resolve the purchase; ask for a refund the buyer (or a failing job)
                            wants; then by the node's state:
      refunded (or never locked before payByTime) → FAILED if not final; credits refunded
      Withdrawn and the job final                 → credits captured
      final, not locked yet, a refund pending     → follow the node again later
      otherwise                                   → the agent's /status beside it
                                                    (completed with the result hash on chain →
                                                    COMPLETED, verified; failed or late → FAILED,
                                                    refund asked next round)

Every node and agent call happens with nothing held; each outcome is written by the dispatcher
(``DispatchSteps.write_outcome``: one short transaction under its lease) through
``jobs.lifecycle``, which alone changes job status and settles credits — once.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import structlog

from agora.dispatch.payment import DispatchSteps, Event, StartPlan
from agora.jobs import lifecycle
from agora.kit.timeutil import isoformat, utcnow
from agora.mip003 import hashes
from agora.mip003.types import JobStatus, StartedJob
from agora.models import Job
from agora.payments.client import (
    NodeConflict,
    NodeError,
    NodeRejected,
    NodeUnavailable,
    PaymentNodeClient,
    Purchase,
)
from agora.payments.start import start_plan
from agora.payments.states import (
    FUNDS_LOCKED,
    MANUAL_ACTION,
    MASUMI,
    PENDING_REFUND_STATES,
    REFUND_ASKED,
    REFUND_EVENTS,
    REFUNDABLE_STATES,
    REFUNDED_STATES,
    WITHDRAWN,
    now_ms,
)
from agora.settings import Settings

log = structlog.get_logger(__name__)

# What a buyer compares between its purchase body and the node's Purchase object
RECOVERY_FIELDS: tuple[str, ...] = ("inputHash", "payByTime", "submitResultTime")
RECOVERY_FIELDS += ("unlockTime", "externalDisputeUnlockTime")


@dataclass(frozen=True)
class _Asked:
    """After a refund was (or was not) asked: the purchase as the node last answered, whether
    the request is done with (cleared from the job), and when to ask again."""

    purchase: Purchase
    clear: bool = False
    retry_in: float | None = None


class MasumiBackend:
    name = MASUMI

    def __init__(self, node: PaymentNodeClient, settings: Settings) -> None:
        self.node, self.settings = node, settings

    async def aclose(self) -> None:
        return None  # the node client is shared by the process's dispatchers

    def follows(self, job: Job) -> bool:
        return job.payment_backend == MASUMI and not job.settled

    def on_started(self, job: Job, started: StartedJob) -> StartPlan:
        return start_plan(job, started, self.settings)

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
        events: list[Event] = []
        _note_manual_action(job, payment, purchase, events)
        asked = await self._ask_refund(dispatcher, job, payment, purchase, events)
        if asked is None:  # the node is down: asked again later
            return
        fields = _followed_fields(job, payment, asked, events)
        await self._settle_or_follow(dispatcher, job, base_url, asked, payment, events, fields)

    async def _ask_refund(
        self,
        dispatcher: DispatchSteps,
        job: Job,
        payment: dict[str, Any],
        purchase: Purchase,
        events: list[Event],
    ) -> _Asked | None:
        """Ask the node for the refund the buyer (or a failing job: ``autoRefund``) wants, while
        the purchase's state allows one; None when the node is down (retried)."""
        wants_refund = _buyer_refund_pending(job, payment) or (
            payment.get("autoRefund") and purchase.on_chain_state == FUNDS_LOCKED
        )
        if not wants_refund:
            return _Asked(purchase)
        if purchase.on_chain_state not in REFUNDABLE_STATES:
            # The state moved on meanwhile; nothing left to ask
            return _Asked(purchase, clear=_buyer_refund_pending(job, payment))
        assert job.blockchain_identifier is not None
        try:
            refunding = await self.node.request_refund(job.blockchain_identifier)
        except NodeUnavailable as exc:
            await self._node_retry(dispatcher, job, "request-refund", exc)
            return None
        except NodeError as exc:
            retry_in = self._refund_refused(job, payment, purchase, exc, events)
            return _Asked(purchase, clear=retry_in is None, retry_in=retry_in)
        payment.pop("refundAttempts", None)
        return _Asked(refunding, clear=True)

    async def _settle_or_follow(
        self,
        dispatcher: DispatchSteps,
        job: Job,
        base_url: str,
        asked: _Asked,
        payment: dict[str, Any],
        events: list[Event],
        fields: dict[str, Any],
    ) -> None:
        """Settlement: the node says who got the funds; else follow it, or the agent, again."""
        purchase = asked.purchase
        state = purchase.on_chain_state
        final = job.status in lifecycle.FINAL_STATUSES
        if state in REFUNDED_STATES or (
            state is None and purchase.node_time_ms > payment["payByTime"]
        ):
            failure: dict[str, Any] = {}
            if not final:
                reason = (
                    "the funds were never locked before payByTime"
                    if state is None
                    else f"the purchase ended {state}: the buyer was refunded"
                )
                detail = {"reason": reason, "onChainStatus": state}
                failure = {"to_status": lifecycle.FAILED, "detail": detail, "error": reason}
            settled = {"onChainStatus": state, "credits": "refunded"}
            await dispatcher.write_outcome(
                job, events, refund_credits=True, settle_detail=settled, **failure, **fields
            )
        elif state == WITHDRAWN and final:
            settled = {"onChainStatus": state, "credits": "captured"}
            await dispatcher.write_outcome(
                job, events, refund_credits=False, settle_detail=settled, **fields
            )
        elif final or state is None or state in PENDING_REFUND_STATES or asked.retry_in is not None:
            delay = self.settings.masumi.follow_seconds if final else self._poll_delay(job)
            delay = min(delay, asked.retry_in) if asked.retry_in is not None else delay
            await dispatcher.write_outcome(job, events, **fields, **_due(delay))
        else:
            await self._follow_agent(dispatcher, job, base_url, purchase, payment, events, fields)

    async def _follow_agent(
        self,
        dispatcher: DispatchSteps,
        job: Job,
        base_url: str,
        purchase: Purchase,
        payment: dict[str, Any],
        events: list[Event],
        fields: dict[str, Any],
    ) -> None:
        """The funds are locked: the agent's ``/status`` decides what the job shows."""
        status = await dispatcher.agent_status(job, base_url)
        if status is None:
            return
        value = status.status
        now = purchase.node_time_ms
        late = now >= payment["submitResultTime"] and purchase.result_hash is None
        if value == "completed" and purchase.result_hash is not None:
            follow = dispatcher.queued_fields(self.settings.masumi.follow_seconds)
            await _completed(dispatcher, job, status, purchase, events, {**fields, **follow})
        elif value == "failed" or late:
            reason = (
                status.message or status.result or "the agent reported that the job failed"
                if value == "failed"
                else "the agent submitted no result before submitResultTime"
            )
            payment["autoRefund"] = True
            await dispatcher.write_outcome(
                job,
                events,
                to_status=lifecycle.FAILED,
                detail={"agentStatus": value, "reason": reason},
                error=reason,
                agent_job_status=value,
                **{**fields, **dispatcher.queued_fields(0)},
            )
        elif value == "awaiting_input" and status.input_schema is not None:
            await dispatcher.write_outcome(
                job,
                events,
                to_status=lifecycle.INPUT_REQUIRED,
                detail={"agentStatus": value, "statusId": status.status_id},
                agent_job_status=value,
                input_request=status.input_request(),
                **fields,
                **dispatcher.waiting_input_fields(),
            )
        else:  # running, awaiting_payment, or completed with no result hash on chain yet
            if value != job.agent_job_status:
                fields.update(agent_job_status=value, updated_at=utcnow())
            await dispatcher.write_outcome(job, events, **fields, **_due(self._poll_delay(job)))

    def _refund_refused(
        self,
        job: Job,
        payment: dict[str, Any],
        purchase: Purchase,
        exc: NodeError,
        events: list[Event],
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
            delay = self._backoff(attempt)
            payment["refundAttempts"] = attempt
            retry = {"status": exc.status_code, "error": exc.message, "attempt": attempt}
            events.append(("refund_retry", {**retry, "retryInSeconds": delay}))
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
            self.settings.dispatch.status_poll_max_seconds,
            max(self.settings.dispatch.status_poll_initial_seconds, (job.poll_interval or 0) * 2),
        )

    def _backoff(self, attempt: int) -> float:
        """The capped back-off before asking the node again (``attempt`` counts from 1)."""
        return float(
            min(
                self.settings.masumi.follow_seconds,
                self.settings.dispatch.agent_retry_seconds * 2 ** min(attempt - 1, 10),
            )
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
        elif self.settings.masumi.units_per_credit > 0:  # the drift guard of Fixed prices
            amount = (job.price - job.fee) * self.settings.masumi.units_per_credit
            body["Amounts"] = [{"unit": self.settings.masumi.price_unit, "amount": str(amount)}]
        return body

    async def _purchase(self, dispatcher: DispatchSteps, job: Job, payment: dict[str, Any]) -> None:
        if not hashes.valid_purchaser_identifier(job.identifier_from_purchaser):
            await self._fail_unbought(dispatcher, job, "identifierFromPurchaser is not 14-26 hex")
            return
        body = self.purchase_body(job)
        events: list[Event] = []
        try:
            purchase = await self.node.create_purchase(body)
        except NodeConflict as conflict:
            recovered = await self._recover(dispatcher, job, body, conflict, events)
            if recovered is None:
                return
            purchase = recovered
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
        created = {"onChainStatus": purchase.on_chain_state, "nextAction": purchase.next_action}
        events.append(("purchase_created", {**created, "txHash": purchase.tx_hash}))
        await dispatcher.write_outcome(
            job,
            events,
            payment=payment,
            on_chain_status=purchase.on_chain_state,
            attempts=0,
            **_due(self.settings.dispatch.status_poll_initial_seconds),
        )

    async def _recover(
        self,
        dispatcher: DispatchSteps,
        job: Job,
        body: dict[str, Any],
        conflict: NodeConflict,
        events: list[Event],
    ) -> Purchase | None:
        """ "Purchase exists" (our earlier attempt whose answer was lost?): resolve it and compare
        the fields the real Purchase object has (masumi-payment-service aca3833,
        src/routes/api/purchases/schemas.ts purchaseResponseSchema: no identifierFromPurchaser,
        network or sellerVkey). None when the job was retried or failed instead."""
        assert job.blockchain_identifier is not None
        try:
            purchase = await self.node.resolve_purchase(job.blockchain_identifier)
        except NodeError as exc:
            await self._node_retry(dispatcher, job, "resolve-blockchain-identifier", exc)
            return None
        differs = _differences(purchase.data, body)
        if differs:
            await self._fail_unbought(
                dispatcher,
                job,
                f"the node holds a different purchase for this job ({', '.join(differs)})",
            )
            return None
        events.append(
            (
                "purchase_recovered",
                {
                    "reason": f"409 on create ({conflict.message}); resolved, same",
                    "purchaseId": purchase.data.get("id") or conflict.payload.get("id"),
                },
            )
        )
        return purchase

    async def _fail_unbought(self, dispatcher: DispatchSteps, job: Job, reason: str) -> None:
        """Nothing was locked: fail the job and refund its credits now."""
        await dispatcher.write_outcome(
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
        if attempts >= self.settings.masumi.max_node_attempts and not purchased:
            await self._fail_unbought(
                dispatcher,
                job,
                f"the payment node failed {attempts} times in a row; last error: {exc.message}",
            )
            return
        # Once bought, the funds are on chain: keep following (capped back-off), never guess.
        delay = self._backoff(attempts)
        await dispatcher.write_outcome(job, [event], attempts=attempts, **_due(delay))


async def _completed(
    dispatcher: DispatchSteps,
    job: Job,
    status: JobStatus,
    purchase: Purchase,
    events: list[Event],
    fields: dict[str, Any],
) -> None:
    """The agent completed and its result hash is on chain: COMPLETED, verified when the hash is
    the result's by either rule — the SDK's (JSON-escaped) or MIP-004's text (the raw string)."""
    assert purchase.result_hash is not None
    result = status.result if status.result is not None else ""
    computed = hashes.result_hashes(job.identifier_from_purchaser, result)
    rule = hashes.match_result_hash(job.identifier_from_purchaser, result, purchase.result_hash)
    ours = computed[rule] if rule is not None else computed["sdk"]
    detail: dict[str, Any] = {"agentStatus": status.status, "verified": rule is not None}
    if rule is not None:
        detail["resultHashRule"] = rule
    else:
        detail["reason"] = "result hash mismatch"
        mismatch = {"onChain": purchase.result_hash, "computed": ours}
        events.append(("result_hash_mismatch", mismatch))
    await dispatcher.write_outcome(
        job,
        events,
        to_status=lifecycle.COMPLETED,
        detail=detail,
        result=result,
        result_hash=ours,
        verified=rule is not None,
        agent_job_status=status.status,
        **fields,
    )


def _note_manual_action(
    job: Job, payment: dict[str, Any], purchase: Purchase, events: list[Event]
) -> None:
    """The node stopped on this purchase (a batch or a transaction failed): an operator recovers
    it there (error-state-recovery); Agora keeps following, and notes it once."""
    if purchase.next_action == MANUAL_ACTION and "manualAction" not in payment:
        note = _error_note(purchase)
        payment["manualAction"] = {"note": note, "at": isoformat(utcnow())}
        events.append(("node_manual_action", {"note": note}))
        log.warning("payment_node_manual_action", job_id=str(job.id), note=note)
    elif purchase.next_action != MANUAL_ACTION:
        payment.pop("manualAction", None)


def _followed_fields(
    job: Job, payment: dict[str, Any], asked: _Asked, events: list[Event]
) -> dict[str, Any]:
    """The job's columns after a look at its purchase: the payment record with the node's clock,
    the refund request cleared once done with, the on-chain state (and its events) when it
    moved."""
    purchase = asked.purchase
    payment.update(nodeTimeMs=purchase.node_time_ms, skewMs=purchase.node_time_ms - now_ms())
    fields: dict[str, Any] = {"payment": payment, "attempts": 0}
    if asked.clear:
        payment.pop("autoRefund", None)
        if job.refund_requested_at is not None:
            # Done with the buyer's request; ``refund_requested_at`` stays: once per job, ever.
            payment[REFUND_ASKED] = True
    state = purchase.on_chain_state
    if state != job.on_chain_status:
        fields["on_chain_status"] = state
        fields["updated_at"] = utcnow()
        events.append(_state_event(job.on_chain_status, purchase))
        if state in REFUND_EVENTS:
            events.append((REFUND_EVENTS[state], {"onChainStatus": state}))
    return fields


def _buyer_refund_pending(job: Job, payment: dict[str, Any]) -> bool:
    """The buyer asked for a refund (``refund_requested_at``, never cleared: the refund route's
    compare-and-set lets one request through per job) and the node was not asked for it yet."""
    return job.refund_requested_at is not None and not payment.get(REFUND_ASKED)


def _differences(found: Mapping[str, Any], body: Mapping[str, Any]) -> list[str]:
    """Where the node's Purchase differs from what Agora buys. ``agentIdentifier`` is nullable
    on the real object (decoded from the identifier): compared only when present."""
    names = [k for k in ("blockchainIdentifier", "agentIdentifier") if found.get(k) is not None]
    return [k for k in (*names, *RECOVERY_FIELDS) if str(found.get(k)) != str(body[k])]


def _error_note(purchase: Purchase) -> str | None:
    action = purchase.data.get("NextAction")
    note = action.get("errorNote") if isinstance(action, dict) else None
    return str(note)[:500] if note else None


def _due(delay: float) -> dict[str, Any]:
    return {"poll_interval": delay, "next_attempt_at": utcnow() + timedelta(seconds=delay)}


def _state_event(before: str | None, purchase: Purchase) -> Event:
    return (
        "payment_state",
        {
            "from": before,
            "onChainStatus": purchase.on_chain_state,
            "nextAction": purchase.next_action,
            "txHash": purchase.tx_hash,
        },
    )
