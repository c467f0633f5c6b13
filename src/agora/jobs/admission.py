"""Job admission: hiring an agent (``create_job``, docs/jobs.md), one step at a time, in a
declared order. Every door that creates a job runs it: ``POST /v1/agents/{id}/jobs``, the web
hire form and the compare page, the MCP tool ``create_job``, a task's jobs and a schedule's.

``CHECKS`` run first and write nothing: each may refuse (400 naming the field, 404, 409). With
``every_problem`` (the web form) the field problems of all of them are collected and refused
together; otherwise the first refusal ends the admission. Then ``WRITES`` run in the order
declared, in the caller's transaction.

The order of the writes is the lock order (docs/performance.md, "Job creation's lock hold"):
the rows every creation of a workspace (of an agent) updates — the member's and the project's
spending caps, the workspace's credits (the hold), the agent's job count — are locked by the
last steps, after every write that locks nothing shared (the job, its event, its webhook, the
NOTIFYs sent ahead), so concurrent creations queue on them for the fewest round trips before the
commit, and always in the same order (caps, then workspace, then agent), so two creations never
wait for each other's locks. ``Step.locks`` names the shared row a step locks;
tests/jobs/test_admission.py pins the order, and with real concurrent creations that it holds.
"""

from __future__ import annotations

import hashlib
import json
import re
import uuid
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from agora.agents import service as agents_service
from agora.agents import versions
from agora.auth.principal import Permission, Principal
from agora.billing import caps
from agora.billing import warnings as low_balance
from agora.credits import ledger
from agora.files import service as files_service
from agora.jobs import lifecycle, signals
from agora.jobs import repository as repo
from agora.jobs.schemas import JobCreate
from agora.jobs.sharing import new_share_token, share_target
from agora.jobs.views import ShownJob, shown, shown_one
from agora.kit.db import send_notifications
from agora.kit.errors import BadRequest, Conflict, FieldError, NotFound
from agora.kit.ids import parse_uuid, uuid7
from agora.kit.money import to_base, to_display
from agora.kit.outbound import OutboundPolicy
from agora.kit.telemetry import current_traceparent
from agora.kit.timeutil import UTC_ZONE, utcnow, zoned_text
from agora.mip003.client import new_identifier_from_purchaser
from agora.mip003.validation import validate_input
from agora.models import Job, Organization
from agora.models.rows import AgentForJob, JobColumns
from agora.models.statuses import AgentStatus, JobType, PricingType
from agora.notifications import service as notifications
from agora.settings import Settings

_IDEMPOTENCY_KEY = re.compile(r"^[\x21-\x7e]{1,200}$")


@dataclass(frozen=True)
class CreatedJob:
    job: ShownJob
    replayed: bool  # an Idempotency-Key replay: no new job, no new charge


@dataclass
class Admission:
    """One job being admitted: what was asked, and what the steps found and decided."""

    session: AsyncSession
    principal: Principal
    agent_id: str  # as the caller named it
    agent: AgentForJob
    body: JobCreate
    settings: Settings
    key: str | None  # the Idempotency-Key, cleaned
    digest: str  # the request's hash (with a key only)
    now: datetime = field(default_factory=utcnow)
    price: int = 0  # what is held: the price with its fee, or a Dynamic agent's ceiling
    limit: int | None = None  # the most credits the caller accepts
    hook: tuple[str, list[str] | None] | None = None  # the job's own webhook
    task_id: uuid.UUID | None = None
    share_org: Organization | None = None
    job: JobColumns | None = None
    replayed: CreatedJob | None = None  # a concurrent request with the same key won the insert
    crossed_low: bool = False  # the hold took the balance below the low-balance threshold
    balance: int = 0  # the balance after the hold

    @property
    def data(self) -> dict[str, Any]:
        return self.body.inputData or {}

    @property
    def dynamic(self) -> bool:
        return self.agent.pricing_type == PricingType.DYNAMIC

    @property
    def created(self) -> JobColumns:
        assert self.job is not None, "the job is inserted by the first write"
        return self.job


@dataclass(frozen=True)
class Step:
    """One step of the admission. ``locks``: the row shared by concurrent creations that the
    step locks (the lock order is the order of these steps)."""

    name: str
    run: Callable[[Admission], Awaitable[None]]
    locks: str | None = None


# ---- the checks --------------------------------------------------------------------------


async def _agent_takes_jobs(a: Admission) -> None:
    if a.agent.status != AgentStatus.VERIFIED:
        raise BadRequest.field(
            "agentId", f"agent {a.agent_id} is {a.agent.status}; only VERIFIED agents take jobs"
        )


def _max_credits(body: JobCreate) -> int | None:
    given = {
        name: value
        for name, value in (
            ("maxAcceptedCredits", body.maxAcceptedCredits),
            ("maxCredits", body.maxCredits),
        )
        if value is not None
    }
    values = set()
    for name, value in given.items():
        try:
            values.add(to_base(value))
        except ValueError as exc:
            raise BadRequest.field(name, str(exc)) from exc
    if len(values) > 1:
        raise BadRequest.field("maxCredits", "differs from maxAcceptedCredits; send one of them")
    return values.pop() if values else None


def price_limit_problem(agent: AgentForJob, body: JobCreate) -> str | None:
    """Why a fixed-price agent's price (fee included) is above the maximum ``body`` accepts, or
    None (also for a Dynamic-priced agent, whose price the seller names per job)."""
    limit = _max_credits(body)
    price = agent.price + agent.fee
    if agent.pricing_type == PricingType.DYNAMIC or limit is None or price <= limit:
        return None
    return (
        f"the agent's price is {to_display(price)} credits, above the "
        f"{to_display(limit)} you accept"
    )


def _dynamic_ceiling(limit: int | None, settings: Settings) -> int:
    """A Dynamic-priced agent is bought through a payment node, up to the buyer's ceiling
    (held at creation; the seller's signed price, fee included, is captured, the rest given
    back — docs/payments.md, "Dynamic prices")."""
    if settings.payments.backend != "masumi":
        raise BadRequest.field(
            "agentId", "the agent is Dynamic-priced: it is bought only through a payment node"
        )
    if limit is None or limit <= 0:
        raise BadRequest.field(
            "maxAcceptedCredits",
            "the agent is Dynamic-priced: give the most credits you accept (above 0)",
        )
    return limit


async def _price_within_limit(a: Admission) -> None:
    a.limit = _max_credits(a.body)
    if a.dynamic:  # the seller names each job's price: hold the ceiling the buyer accepts
        a.price = _dynamic_ceiling(a.limit, a.settings)
    elif (problem := price_limit_problem(a.agent, a.body)) is not None:
        raise BadRequest.field("maxAcceptedCredits", problem)
    else:
        a.price = a.agent.price + a.agent.fee


def _field_ids(schema: Any) -> list[str] | None:
    """The field ids of an input schema as clients send it back: the object of
    ``GET …/input-schema`` (``{input_data: [...]}``) or its ``input_data`` list. None: not one."""
    fields = schema.get("input_data") if isinstance(schema, dict) else schema
    if not isinstance(fields, list) or not all(
        isinstance(f, dict) and isinstance(f.get("id"), str) for f in fields
    ):
        return None
    return sorted(f["id"] for f in fields)


def _check_sent_schema(sent: Any, current: dict[str, Any] | None) -> None:
    """``inputSchema`` (optional) is the schema the client filled in: it must be the agent's
    current one (same field ids), else the input was built for another schema → 409."""
    if sent is None:
        return
    ids = _field_ids(sent)
    if ids is None:
        raise BadRequest.field(
            "inputSchema", "must be the agent's input schema as GET /v1/agents/{id}/input-schema"
        )
    if ids != (_field_ids(current or {"input_data": []}) or []):
        raise Conflict(
            "The agent's input schema has changed since inputSchema was read; "
            "read GET /v1/agents/{id}/input-schema again"
        )


def refused(problems: Sequence[FieldError]) -> BadRequest:
    """One 400 for ``problems``: the first in the message, all in the details."""
    first = problems[0]
    more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
    return BadRequest(f"{first.field}: {first.reason}{more}", details=list(problems))


def input_problems(schema: dict[str, Any] | None, data: dict[str, Any]) -> None:
    """400 naming every field of ``data`` the input schema refuses."""
    problems = validate_input(schema, data)
    if problems:
        raise refused([FieldError(f"inputData.{p.field}", p.reason) for p in problems])


async def _input_matches_schema(a: Admission) -> None:
    _check_sent_schema(a.body.inputSchema, a.agent.input_schema)
    input_problems(a.agent.input_schema, a.data)


async def _input_files_exist(a: Admission) -> None:
    await files_service.check_job_inputs(a.session, a.principal, a.agent.input_schema, a.data)


async def _webhook_allowed(a: Admission) -> None:
    policy = OutboundPolicy.from_setting(a.settings.outbound_allow)
    a.hook = notifications.check_job_webhook(a.body.webhook, a.body.webhookEventsFilter, policy)


async def _task_is_live(a: Admission) -> None:
    if a.body.taskId is None:
        return
    parsed = parse_uuid(a.body.taskId)
    task = (
        await repo.task_in_workspace(a.session, parsed, a.principal.workspace_id)
        if parsed
        else None
    )
    if task is None:
        raise NotFound(f"Task {a.body.taskId} not found")
    if task.archived_at is not None:
        raise BadRequest.field("taskId", f"task {a.body.taskId} is archived")
    a.task_id = task.id


async def _share_target_is_yours(a: Admission) -> None:
    if a.body.jobShareRequest is not None:
        request = a.body.jobShareRequest
        a.share_org = await share_target(a.session, a.principal, request, "jobShareRequest.")


CHECKS: tuple[Step, ...] = (
    Step("the agent takes jobs", _agent_takes_jobs),
    Step("the price is within the maximum", _price_within_limit),
    Step("the input matches the schema", _input_matches_schema),
    Step("the input files are the workspace's", _input_files_exist),
    Step("the webhook may be called", _webhook_allowed),
    Step("the task is live", _task_is_live),
    Step("the share's organization is yours", _share_target_is_yours),
)


async def _check(a: Admission, *, every_problem: bool, found: Sequence[FieldError]) -> None:
    """Run the checks: the first refusal ends them, or (``every_problem``) every field problem
    is collected, with ``found`` (the door's own), and refused together."""
    problems = list(found)
    for step in CHECKS:
        try:
            await step.run(a)
        except BadRequest as exc:
            if not every_problem:
                raise
            problems += exc.details or [FieldError("form", exc.message)]
    if problems:
        raise refused(problems)


# ---- the writes, in lock order -----------------------------------------------------------


def default_job_name(agent_name: str, at: datetime, zone: ZoneInfo = UTC_ZONE) -> str:
    """A job's name when its body gives none: the agent and the time, its zone named ("Echo ·
    2026-11-28 09:15 UTC"; a page names it in its reader's zone)."""
    return f"{agent_name} · {zoned_text(at, zone)}"


def _job_values(a: Admission) -> dict[str, Any]:
    now, price, body, principal = a.now, a.price, a.body, a.principal
    paid = price > 0
    values: dict[str, Any] = {
        "id": uuid7(),
        "workspace_id": principal.workspace_id,
        "user_id": principal.user_id,
        "organization_id": principal.organization_id,
        "agent_id": a.agent.id,
        "agent_version": a.agent.current_version,
        "task_id": a.task_id,
        "name": (body.name or "").strip() or default_job_name(a.agent.name, now),
        "status": lifecycle.PENDING,
        "job_type": JobType.PAID if paid else JobType.FREE,
        "input_data": a.data,
        "identifier_from_purchaser": new_identifier_from_purchaser(),
        # With a payment node, onChainStatus is the node's (null until something is on chain).
        "on_chain_status": (
            lifecycle.FUNDS_LOCKED if paid and a.settings.payments.backend == "credits" else None
        ),
        "price": price,
        "fee": a.agent.fee,
        "max_accepted_credits": a.limit,
        "payment": {"pricing": PricingType.DYNAMIC.value} if a.dynamic else None,
        "idempotency_key": a.key,
        "request_hash": a.digest or None,
        "dispatch_state": "queued",
        "next_attempt_at": now,
        "attempts": 0,
        "deadline_at": now + timedelta(seconds=a.settings.dispatch.job_deadline_seconds),
        "created_at": now,
        "updated_at": now,
    }
    if body.jobShareRequest is not None:
        values.update(
            share_token=new_share_token(),
            share_public=body.jobShareRequest.public,
            share_recipient_organization_id=a.share_org.id if a.share_org else None,
            share_user_id=principal.user_id,
            share_created_at=now,
            share_updated_at=now,
        )
    return values


async def _insert_job(a: Admission) -> None:
    values = _job_values(a)
    if a.key is None:
        a.job = await repo.insert(a.session, **values)
        return
    try:
        async with a.session.begin_nested():
            a.job = await repo.insert(a.session, **values)
    except IntegrityError:
        # A concurrent request with the same key committed first (PostgreSQL waits for it).
        existing = await repo.by_idempotency_key(a.session, a.principal.user_id, a.key)
        if existing is None:
            raise
        a.replayed = await _replay(a.session, existing, a.digest, a.settings)


async def _record_created(a: Admission) -> None:
    detail: dict[str, Any] = {"price": to_display(a.price)}
    traceparent = current_traceparent()  # tracing on: the dispatcher's spans join this trace
    if traceparent is not None:
        detail["traceparent"] = traceparent
    await lifecycle.record_event(
        a.session, a.created, "created", to_status=lifecycle.PENDING, detail=detail
    )


async def _add_webhook(a: Admission) -> None:
    if a.hook is not None:  # the job's own webhook (docs/notifications.md)
        await notifications.add_job_webhook(a.session, a.principal.user_id, a.created.id, a.hook)


async def _wake_dispatcher(a: Admission) -> None:
    await signals.job_ready(a.session)


async def _send_notifications(a: Admission) -> None:
    # Sent now (PostgreSQL still delivers them only at commit), not while the locks are held.
    await send_notifications(a.session)


async def _charge_caps(a: Admission) -> None:
    if a.price > 0:  # an organization's spending caps, in the hold's transaction
        spend = caps.job_spend(a.principal, a.price, a.task_id)
        await caps.charge(a.session, spend, now=a.now)


async def _hold_credits(a: Admission) -> None:
    if a.price > 0:
        held = await ledger.hold(
            a.session,
            workspace_id=a.principal.workspace_id,
            amount=a.price,
            job_id=a.created.id,
            user_id=a.principal.user_id,
        )
        a.crossed_low, a.balance = held.crossed_low, held.balance


async def _warn_low_balance(a: Admission) -> None:
    if a.crossed_low:  # once per fall below the threshold (billing/warnings.py)
        await low_balance.crossed(a.session, a.settings, a.principal.workspace_id, a.balance)


async def _count_job(a: Admission) -> None:
    await agents_service.increment_job_count(a.session, a.agent.id)


WRITES: tuple[Step, ...] = (
    Step("the job", _insert_job),
    Step("its created event", _record_created),
    Step("its webhook", _add_webhook),
    Step("the dispatcher woken", _wake_dispatcher),
    Step("the NOTIFYs sent", _send_notifications),
    # The rows shared by concurrent creations, last (see the module's docstring):
    Step("the spending caps", _charge_caps, locks="spending caps"),
    Step("the credit hold", _hold_credits, locks="workspace"),
    Step("the low-balance warning", _warn_low_balance),
    Step("the agent's job count", _count_job, locks="agent"),
)


# ---- the use case ------------------------------------------------------------------------


def _request_hash(principal: Principal, agent_id: str, body: JobCreate) -> str:
    payload = {
        "workspaceId": str(principal.workspace_id),
        "agentId": agent_id,
        "body": body.model_dump(mode="json", exclude_unset=True),
    }
    canonical = json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode()).hexdigest()


def _clean_idempotency_key(key: str | None) -> str | None:
    if key is None:
        return None
    key = key.strip()
    if not _IDEMPOTENCY_KEY.match(key):
        raise BadRequest.field("Idempotency-Key", "must be 1 to 200 visible ASCII characters")
    return key


async def _replay(session: AsyncSession, job: Job, digest: str, settings: Settings) -> CreatedJob:
    if job.request_hash != digest:
        raise BadRequest.field(
            "Idempotency-Key", "was already used for a different request; use a new key"
        )
    return CreatedJob(await shown_one(session, job, settings), replayed=True)


async def create_job(
    session: AsyncSession,
    principal: Principal,
    agent_id: str,
    body: JobCreate,
    *,
    settings: Settings,
    idempotency_key: str | None = None,
    every_problem: bool = False,
    found: Sequence[FieldError] = (),
    version: int | None = None,
) -> CreatedJob:
    """Admit a job: check, hold the price, enqueue (402 when the workspace's credits or a
    spending cap are short). An Idempotency-Key already used by the caller replays its job.
    ``every_problem``: refuse with every field problem at once (the web form's summary), with
    ``found``, the problems the door met while reading its form. ``version``: the agent's
    version to run (a schedule's or saved input's; 400 naming agentVersion when it has none such);
    otherwise its current one. The job records the version, priced and validated as it."""
    principal.require(Permission.JOBS_WRITE)
    key = _clean_idempotency_key(idempotency_key)
    digest = _request_hash(principal, agent_id, body) if key is not None else ""
    if key is not None:
        existing = await repo.by_idempotency_key(session, principal.user_id, key)
        if existing is not None:
            return await _replay(session, existing, digest, settings)
    agent = await agents_service.get_for_job(session, agent_id)
    if version is not None:
        agent = await versions.at_version(session, agent, version)
    a = Admission(session, principal, agent_id, agent, body, settings, key, digest)
    await _check(a, every_problem=every_problem, found=found)
    for step in WRITES:
        await step.run(a)
        if a.replayed is not None:
            return a.replayed
    demo = {agent.id} if repo.is_demo_agent(agent) else set()
    return CreatedJob((await shown(session, [a.created], settings, demo=demo))[0], replayed=False)
