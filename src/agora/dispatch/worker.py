"""The dispatcher (DESIGN §3 "Dispatch"; docs/dispatch.md).

Each round claims due jobs with a lease, then advances each job by ONE agent call, made outside
any database transaction, and writes the outcome in a new short transaction through
``jobs.lifecycle``:

    PENDING, no agent job      → POST /start_job (same identifier_from_purchaser on every retry)
    RUNNING, answer waiting    → POST /provide_input
    RUNNING                    → GET /status: running → poll again with back-off;
                                 awaiting_input → INPUT_REQUIRED (parked until answered);
                                 completed → COMPLETED (capture); failed → FAILED (refund)

Agent errors (timeouts, 5xx, garbage, a vanished job) are retried with back-off and fail the job
with a refund after ``max_agent_attempts`` in a row; ``deadline_at`` bounds a job's whole run.
A worker that dies leaves its lease behind; once it expires another worker claims the job and
carries on (status changes are compare-and-set, so the user is charged once).
"""

from __future__ import annotations

import asyncio
import os
import socket
import time
import uuid
from collections.abc import Sequence
from datetime import timedelta
from typing import Any

import structlog

from agora.a2a.client import A2aClient
from agora.a2a.client import client_for as a2a_client_for
from agora.credits.ledger import PayoutTerms
from agora.dispatch import a2a as a2a_steps
from agora.dispatch import repository as repo
from agora.dispatch.payment import Event, PaymentBackend
from agora.files import service as files_service
from agora.files.worker import FILES_COLLECT
from agora.jobs import lifecycle
from agora.jobs.signals import JOB_READY
from agora.kit import background, telemetry
from agora.kit.background import LoopService, finish
from agora.kit.db import Database
from agora.kit.fanout import Fanout
from agora.kit.metrics import AGENT_CALL_ERRORS, DISPATCH_LATENCY
from agora.kit.textinput import find_unstorable
from agora.kit.timeutil import as_utc, utcnow
from agora.mip003.client import Mip003Client
from agora.mip003.errors import AgentBadResponse, AgentError, AgentRejectedInput
from agora.mip003.types import JobStatus
from agora.models import Job
from agora.models.statuses import AgentProtocol, DispatchState
from agora.settings import Settings

log = structlog.get_logger(__name__)

# A safety net only: wake-ups (in-process signal, the fan-out: LISTEN/NOTIFY or Redis) start new
# jobs at once.
IDLE_POLL_SECONDS = 2.0
RUNNING_AGENT_STATUSES = frozenset({"running", "awaiting_payment", "pending", "started"})


class Dispatcher(LoopService):
    """Claims and advances jobs. ``start()``/``stop()`` run it as a background service;
    ``run_once()`` and ``run_until_idle()`` drive it directly (tests, benchmarks). ``payments``:
    the configured payment backend (``dispatch/payment.py``; the composition root builds it)."""

    def __init__(
        self,
        db: Database,
        client: Mip003Client,
        settings: Settings,
        *,
        payments: PaymentBackend,
        owner: str | None = None,
        concurrency: int | None = None,
        a2a: A2aClient | None = None,
        fanout: Fanout | None = None,
    ) -> None:
        self.db, self.client, self.settings = db, client, settings
        self._a2a, self._own_a2a = a2a, a2a is None
        self._secret_key: str | None = None
        # A capture credits the seller's earnings at these terms (a wrong currency stops here).
        self.payout_terms = PayoutTerms.of(settings.payouts)
        self.payments = payments
        self.owner = owner or f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        self.concurrency = max(1, concurrency or settings.dispatch.concurrency)
        self._inflight: set[asyncio.Task[None]] = set()
        # The process's one receiver of other processes' wake-ups (``JOB_READY`` among them);
        # without one (tests driving it directly) only this process's wake-ups and the poll.
        self.fanout = fanout
        super().__init__(
            f"dispatcher-{self.owner}",
            interval=IDLE_POLL_SECONDS,
            topics=(JOB_READY,),
            max_delay=IDLE_POLL_SECONDS,
        )

    @property
    def a2a(self) -> A2aClient:
        """The A2A client (``a2a/``): the one given, else one of its own, made when first used
        and closed by ``stop()``."""
        if self._a2a is None:
            self._a2a = a2a_client_for(
                self.settings.dispatch.agent_timeout_seconds, self.settings.outbound_allow
            )
        return self._a2a

    def secret_key(self) -> str:
        """The app's secret key (it opens A2A credentials: ``a2a/credentials.py``)."""
        if self._secret_key is None:
            self._secret_key = self.settings.resolved_secret_key()
        return self._secret_key

    async def a2a_agent(self, job: Job) -> tuple[dict[str, Any] | None, str | None] | None:
        """The job's A2A agent: its card as read and its sealed credential (dispatch/a2a.py)."""
        async with self.db.transaction(write=False) as session:
            return await repo.a2a_agent(session, job.agent_id)

    async def record_event(self, job: Job, event_type: str, detail: dict[str, Any]) -> None:
        """An event of the job in its own short transaction (``a2a_cancel_sent``)."""
        async with self.db.transaction() as session:
            current = await repo.get(session, job.id)
            if current is not None:
                await lifecycle.record_event(session, current, event_type, detail=detail)

    # ---- service -------------------------------------------------------------------------

    async def start(self) -> None:
        if self.fanout is not None:  # wake-ups from other processes (kit/fanout.py)
            await self.fanout.ensure_started()
        await super().start()

    async def stop(self) -> None:
        await super().stop()
        # In-flight calls are abandoned; their leases expire and another worker resumes them.
        await finish(self._inflight, name=f"{self.loop.name} in flight")
        if self._own_a2a and self._a2a is not None:
            await self._a2a.aclose()
            self._a2a = None

    async def round(self) -> float:
        """One round of the background service: start what is due within the free slots;
        returns the seconds until the next round (a wake-up comes sooner)."""
        free = self.concurrency - len(self._inflight)
        if free <= 0:
            return IDLE_POLL_SECONDS  # a finished call wakes the loop
        for job_id in await self.claim(free):
            task = asyncio.create_task(self.process(job_id))
            self._inflight.add(task)
            task.add_done_callback(self._finished)
        if len(self._inflight) < self.concurrency:
            return await self.seconds_until_due()
        return IDLE_POLL_SECONDS

    def _finished(self, task: asyncio.Task[None]) -> None:
        self._inflight.discard(task)
        self.wake()  # a slot is free and the job may be due again soon

    # ---- driving -------------------------------------------------------------------------

    async def claim(self, limit: int) -> list[uuid.UUID]:
        now = utcnow()
        with telemetry.span("agora.dispatch.claim") as claiming:
            async with self.db.transaction() as session:
                claimed = await repo.claim(
                    session,
                    owner=self.owner,
                    now=now,
                    lease_until=now + timedelta(seconds=self.settings.dispatch.lease_seconds),
                    limit=limit,
                )
            claiming.set_attribute("agora.claimed", len(claimed))
            return claimed

    async def seconds_until_due(self) -> float:
        async with self.db.transaction(write=False) as session:
            due = await repo.next_due(session)
        if due is None:
            return IDLE_POLL_SECONDS
        return max(0.0, min(IDLE_POLL_SECONDS, (as_utc(due) - utcnow()).total_seconds()))

    async def run_once(self, limit: int | None = None) -> int:
        """Claim what is due now and advance each claimed job by one step."""
        ids = await self.claim(limit or self.concurrency)
        await asyncio.gather(*(self.process(job_id) for job_id in ids))
        return len(ids)

    async def run_until_idle(self, max_seconds: float = 10.0) -> None:
        """Run rounds until no job is queued or leased (jobs waiting for input do not count)."""
        deadline = time.monotonic() + max_seconds
        while time.monotonic() < deadline:
            if await self.run_once():
                continue
            async with self.db.transaction(write=False) as session:
                due = await repo.next_due(session)
            if due is None:
                return
            wait = (as_utc(due) - utcnow()).total_seconds()
            await asyncio.sleep(min(max(wait, 0.005), 0.25, max(0.0, deadline - time.monotonic())))
        raise TimeoutError(f"jobs still queued after {max_seconds} s")

    # ---- one step ------------------------------------------------------------------------

    async def process(self, job_id: uuid.UUID) -> None:
        try:
            async with self.db.transaction(write=False) as session:
                loaded = await repo.load(session, job_id)
                parent = await repo.traceparent(session, job_id) if telemetry.enabled() else None
            if loaded is None:
                return
            job, base_url, protocol = loaded
            if job.lease_owner != self.owner or job.dispatch_state != DispatchState.LEASED:
                return
            # One span per step, a child of the hire's request (kit/telemetry.py)
            with telemetry.span("agora.dispatch.step", job_id=job_id, traceparent=parent):
                await self._advance(job, base_url, protocol)
        except asyncio.CancelledError:
            raise
        except Exception:  # never lose the loop; the lease expires and the job is retried
            log.exception("dispatch_step_failed", job_id=str(job_id))

    async def _advance(self, job: Job, base_url: str, protocol: str) -> None:
        """Advance a loaded, leased job by one step (``process``)."""
        if protocol == AgentProtocol.A2A:  # dispatch/a2a.py (docs/a2a.md)
            late = job.deadline_at is not None and utcnow() >= as_utc(job.deadline_at)
            if late and job.status not in lifecycle.FINAL_STATUSES:
                await self.fail(job, "the job ran past its deadline")
            else:
                await a2a_steps.step(self, job, base_url)
            return
        following = self.payments.follows(job)  # paid through a payment node
        if job.status in lifecycle.FINAL_STATUSES and not following:
            await self.release(job, dispatch_state=DispatchState.DONE)
        elif following and job.input_request and "answer" in job.input_request:
            await self._provide(job, base_url)
        elif following:
            with telemetry.span("agora.dispatch.payment", job_id=job.id):
                await self.payments.step(self, job, base_url)
        elif job.deadline_at is not None and utcnow() >= as_utc(job.deadline_at):
            await self.fail(job, "the job ran past its deadline")
        elif job.agent_job_id is None:
            await self._start(job, base_url)
        elif job.input_request and "answer" in job.input_request:
            await self._provide(job, base_url)
        else:
            await self._poll(job, base_url)

    async def _agent_input(self, job: Job) -> dict[str, Any]:
        """The input the agent receives: uploaded files' ids become signed URLs (files/)."""
        data = job.input_data or {}
        if not files_service.may_hold_file_ids(data):
            return data
        async with self.db.transaction(write=False) as session:
            return await files_service.agent_input(
                session,
                self.settings,
                workspace_id=job.workspace_id,
                agent_id=job.agent_id,
                data=data,
                not_before=as_utc(job.deadline_at or job.created_at),
            )

    async def _start(self, job: Job, base_url: str) -> None:
        sent = await self._agent_input(job)
        # What the agent hashes (MIP-004) is what it received; the detached row is not saved.
        job.input_data = sent
        try:
            with telemetry.span("agora.dispatch.agent_call", job_id=job.id) as call:
                call.set_attribute("agora.agent_endpoint", "start_job")
                started = await self.client.start_job(
                    base_url,
                    identifier_from_purchaser=job.identifier_from_purchaser,
                    input_data=sent,
                )
        except AgentRejectedInput as exc:
            AGENT_CALL_ERRORS.labels("start_job", type(exc).__name__).inc()
            await self.fail(job, f"the agent rejected the input: {exc.message}")
            return
        except AgentError as exc:
            await self.retry_agent_call(job, "start_job", exc)
            return
        problem = unstorable(agent_job_id=started.job_id, input_hash=started.input_hash)
        if problem:
            await self.fail(job, f"the agent's answer cannot be stored: {problem}")
            return
        DISPATCH_LATENCY.observe((utcnow() - as_utc(job.created_at)).total_seconds())
        plan = self.payments.on_started(job, started)
        if plan.failure is not None:  # before anything is bought
            await self.fail(job, plan.failure)
            return
        initial = self.settings.dispatch.status_poll_initial_seconds
        fields: dict[str, Any] = {
            "agent_job_id": started.job_id,
            "input_hash": started.input_hash,
            "agent_job_status": "running",
            **self.queued_fields(initial),
            **plan.fields,
        }
        await self.transition(
            job, lifecycle.RUNNING, detail={"agentJobId": started.job_id, **plan.detail}, **fields
        )

    async def agent_status(self, job: Job, base_url: str) -> JobStatus | None:
        """The agent's ``/status`` of the job, or None when the call failed (then retried with
        back-off, ``retry_agent_call``) — part of ``dispatch.payment.DispatchSteps``."""
        assert job.agent_job_id is not None
        try:
            with telemetry.span("agora.dispatch.status_poll", job_id=job.id):
                return await self.client.status(base_url, job.agent_job_id)
        except AgentError as exc:
            await self.retry_agent_call(job, "status", exc)
            return None

    async def _poll(self, job: Job, base_url: str) -> None:
        status = await self.agent_status(job, base_url)
        if status is None:
            return
        value = status.status
        if value in ("completed", "failed", "awaiting_input"):
            problem = unstorable(
                result=status.result,
                message=status.message,
                status_id=status.status_id,
                input_schema=status.input_schema,
            )
            if problem:  # fail now (refund), rather than re-calling the agent until the deadline
                await self.fail(job, f"the agent's answer cannot be stored: {problem}")
                return
        if value == "completed":
            with telemetry.span("agora.dispatch.result", job_id=job.id):
                done = await self.transition(
                    job,
                    lifecycle.COMPLETED,
                    detail={"agentStatus": value},
                    result=status.result if status.result is not None else "",
                    agent_job_status=value,
                )
            if done:  # its output files are collected next (files/worker.py)
                background.wake(FILES_COLLECT)
        elif value == "failed":
            reason = status.message or status.result or "the agent reported that the job failed"
            await self.transition(
                job,
                lifecycle.FAILED,
                detail={"agentStatus": value, "reason": reason},
                result=status.result,
                error=reason,
                agent_job_status=value,
            )
        elif value == "awaiting_input" and status.input_schema is not None:
            await self.transition(
                job,
                lifecycle.INPUT_REQUIRED,
                detail={"agentStatus": value, "statusId": status.status_id},
                agent_job_status=value,
                input_request=status.input_request(),
                attempts=0,
                **self.waiting_input_fields(),
            )
        elif value in RUNNING_AGENT_STATUSES:
            interval = min(
                self.settings.dispatch.status_poll_max_seconds,
                max(
                    self.settings.dispatch.status_poll_initial_seconds, (job.poll_interval or 0) * 2
                ),
            )
            seen: dict[str, Any] = {}
            if value != job.agent_job_status:  # a change clients see (agentJobStatus)
                seen = {"agent_job_status": value, "updated_at": utcnow()}
            await self.release(
                job,
                attempts=0,
                poll_interval=interval,
                next_attempt_at=utcnow() + timedelta(seconds=interval),
                **seen,
            )
        else:
            what = "awaiting_input without an input schema" if value == "awaiting_input" else value
            await self.retry_agent_call(
                job, "status", AgentBadResponse(f"/status: unusable status {what!r}")
            )

    async def _provide(self, job: Job, base_url: str) -> None:
        assert job.agent_job_id is not None
        assert job.input_request is not None
        request = job.input_request
        try:
            await self.client.provide_input(
                base_url,
                job_id=job.agent_job_id,
                status_id=request.get("statusId"),
                input_data=request["answer"],
            )
        except AgentRejectedInput as exc:
            # A retry after a lost answer is rejected too: ask the agent where it stands.
            try:
                current = await self.client.status(base_url, job.agent_job_id)
            except AgentError as status_exc:
                await self.retry_agent_call(job, "provide_input", status_exc)
                return
            if current.status == "awaiting_input":
                reopened = {k: v for k, v in request.items() if k not in ("answer", "answeredAt")}
                reopened["rejected"] = exc.message
                await self.transition(
                    job,
                    lifecycle.INPUT_REQUIRED,
                    detail={"reason": "the agent rejected the answer", "error": exc.message},
                    input_request=reopened,
                    **self.waiting_input_fields(),
                )
                return
        except AgentError as exc:
            await self.retry_agent_call(job, "provide_input", exc)
            return
        initial = self.settings.dispatch.status_poll_initial_seconds
        await self.release(
            job,
            input_request=None,
            attempts=0,
            poll_interval=initial,
            next_attempt_at=utcnow() + timedelta(seconds=initial),
        )

    # ---- outcomes ------------------------------------------------------------------------

    def queued_fields(self, delay: float) -> dict[str, Any]:
        """The job's dispatch columns for 'queued again, due in ``delay`` seconds' (part of the
        payment backend's protocol, ``dispatch.payment.DispatchSteps``)."""
        return {
            "dispatch_state": DispatchState.QUEUED,
            "lease_owner": None,
            "lease_expires_at": None,
            "attempts": 0,
            "poll_interval": delay,
            "next_attempt_at": utcnow() + timedelta(seconds=delay),
        }

    async def transition(
        self, job: Job, to_status: str, *, detail: dict[str, Any], **fields: Any
    ) -> bool:
        """Change the status if nobody else did since we loaded the job (compare-and-set)."""
        async with self.db.transaction() as session:
            current = await repo.get(session, job.id)
            if current is None or current.status != job.status:
                return False
            return await lifecycle.transition(
                session, current, to_status, detail=detail, terms=self.payout_terms, **fields
            )

    def waiting_input_fields(self) -> dict[str, Any]:
        """The job's dispatch columns for 'parked until the buyer answers the agent' (no lease,
        nothing due) — part of ``dispatch.payment.DispatchSteps``."""
        return {
            "dispatch_state": DispatchState.WAITING_INPUT,
            "lease_owner": None,
            "lease_expires_at": None,
            "next_attempt_at": None,
        }

    async def write_outcome(
        self,
        job: Job,
        events: Sequence[Event],
        *,
        to_status: str | None = None,
        detail: dict[str, Any] | None = None,
        refund_credits: bool | None = None,
        settle_detail: dict[str, Any] | None = None,
        **fields: Any,
    ) -> bool:
        """A payment step's outcome in one short transaction, if the job is still ours (its
        status unchanged, our lease): the status change or the release with ``fields``, the
        events, the settlement of the credits (``refund_credits``: refund or capture) — part of
        ``dispatch.payment.DispatchSteps``."""
        async with self.db.transaction() as session:
            current = await repo.get(session, job.id)
            if current is None or current.status != job.status:
                return False
            if current.lease_owner != self.owner:
                return False
            if to_status is not None:
                ok = await lifecycle.transition(
                    session, current, to_status, detail=detail, settle=False, **fields
                )
            else:
                ok = await repo.release(session, job.id, self.owner, **fields)
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

    async def release(self, job: Job, **values: Any) -> bool:
        async with self.db.transaction() as session:
            return await repo.release(session, job.id, self.owner, **values)

    async def fail(self, job: Job, reason: str) -> None:
        await self.transition(
            job,
            lifecycle.FAILED,
            detail={"reason": reason},
            error=reason,
            **self.payments.fail_fields(job, self),
        )

    async def retry_agent_call(self, job: Job, endpoint: str, exc: AgentError) -> None:
        """A failed agent call: fail the job after ``max_agent_attempts``, else queue it again
        with back-off."""
        AGENT_CALL_ERRORS.labels(endpoint, type(exc).__name__).inc()
        attempts = job.attempts + 1
        log.info(
            "agent_call_failed",
            job_id=str(job.id),
            endpoint=endpoint,
            attempt=attempts,
            error=exc.message,
        )
        if attempts >= self.settings.dispatch.max_agent_attempts:
            await self.fail(
                job, f"the agent failed {attempts} times in a row; last error: {exc.message}"
            )
            return
        delay = min(
            self.settings.dispatch.status_poll_max_seconds,
            self.settings.dispatch.agent_retry_seconds * 2 ** (attempts - 1),
        )
        async with self.db.transaction() as session:
            released = await repo.release(
                session,
                job.id,
                self.owner,
                attempts=attempts,
                next_attempt_at=utcnow() + timedelta(seconds=delay),
            )
            if released:
                await lifecycle.record_event(
                    session,
                    job,
                    "agent_error",
                    detail={"endpoint": endpoint, "error": exc.message, "attempt": attempts},
                )


# Columns an agent's answer is written to, with their length limits (models/job.py).
ANSWER_LIMITS = {"agent_job_id": 500, "input_hash": 64}


def unstorable(**values: Any) -> str | None:
    """Why an agent's answer cannot be stored (too long for its column, a NUL or a lone
    surrogate anywhere in it), else None — the same verdict on SQLite and PostgreSQL."""
    for name, value in values.items():
        if value is None:
            continue
        limit = ANSWER_LIMITS.get(name)
        if limit is not None and len(str(value)) > limit:
            return f"{name} is longer than {limit} characters"
        found = find_unstorable(value, name)
        if found:
            return f"{found[0]} {found[1]}"
    return None
