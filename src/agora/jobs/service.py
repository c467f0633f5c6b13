"""Job rules (DESIGN §3 "Jobs"; decisions in docs/jobs.md).

Creation validates the input against the agent's MIP-003 schema, holds the price on the
workspace's credit account and enqueues the job, all in the caller's transaction; the dispatcher
is woken after commit. Status changes go through ``jobs.lifecycle`` only. Every function takes a
session and a Principal (no Request), so REST endpoints and MCP tools share them.
"""

from __future__ import annotations

import hashlib
import json
import re
import secrets
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from agora.accounts import service as accounts
from agora.agents import repository as agents_repo
from agora.agents import service as agents_service
from agora.auth import service as auth
from agora.auth.principal import Permission, Principal
from agora.billing import caps
from agora.billing import warnings as low_balance
from agora.credits import ledger
from agora.files import attachments
from agora.files import service as files_service
from agora.jobs import lifecycle, signals
from agora.jobs import repository as repo
from agora.jobs.schemas import (
    InputRequestOut,
    JobCreate,
    JobInputs,
    JobShareRequest,
    Pagination,
)
from agora.kit.db import send_notifications
from agora.kit.errors import BadRequest, Conflict, FieldError, NotFound
from agora.kit.ids import fetch_by_id, parse_uuid, uuid7
from agora.kit.money import to_base, to_display
from agora.kit.outbound import OutboundPolicy
from agora.kit.schemas import RowView
from agora.kit.timeutil import isoformat, utcnow
from agora.mip003 import hashes
from agora.mip003.client import new_identifier_from_purchaser
from agora.mip003.validation import validate_input
from agora.models import Job, JobEvent, Organization
from agora.models.rows import JobColumns
from agora.models.statuses import AgentStatus, JobType, PricingType
from agora.notifications import service as notifications
from agora.settings import Settings

DEFAULT_LIMIT = 20
MAX_LIMIT = 100
MAX_EVENTS = 500
_IDEMPOTENCY_KEY = re.compile(r"^[\x21-\x7e]{1,200}$")


@dataclass(frozen=True)
class ShareUserView:
    """The sharer when their user row is gone: the owner's id, no name."""

    id: uuid.UUID
    name: str = ""
    image: str | None = None


@dataclass(frozen=True)
class ShareView:
    """A job's share record with its sharer and recipient: what ``ShareOut`` reads."""

    created_at: datetime
    updated: datetime
    url: str
    public: bool
    user: repo.SharerColumns | ShareUserView
    recipient_organization: repo.RecipientColumns | None


@dataclass(frozen=True)
class ShownJob(RowView):
    """A job row with its share (and, for shared views, its agent's name): what ``JobOut``
    and ``SharedJobOut`` read. Other attributes are the row's."""

    row: JobColumns
    share: ShareView | None
    agent_name: str = ""
    preview: bool = False
    is_demo: bool = False

    @property
    def result_hash(self) -> str | None:
        """MIP-004 hash of the whole result (also when ``result`` is a listing's preview): the one
        the payment backend stored at completion, else computed the same way."""
        stored: str | None = self.row.result_hash
        if stored is not None:
            return stored
        result: str | None = self.row.result
        return hashes.result_hash(self.row.identifier_from_purchaser, result) if result else None

    @property
    def result_submitted_at(self) -> datetime | None:
        completed: datetime | None = self.row.completed_at
        return completed if self.row.result else None

    @property
    def result(self) -> str | None:
        result: str | None = self.row.result
        if result is not None and self.result_truncated:
            return result[:RESULT_PREVIEW_CHARS]
        return result

    @property
    def result_truncated(self) -> bool:
        return self.preview and len(self.row.result or "") > RESULT_PREVIEW_CHARS


@dataclass(frozen=True)
class CreatedJob:
    job: ShownJob
    replayed: bool  # an Idempotency-Key replay: no new job, no new charge


@dataclass(frozen=True)
class JobPage:
    jobs: list[ShownJob]
    pagination: Pagination


# ---- loading what the responses show -----------------------------------------------------


def share_url(settings: Settings, token: str) -> str:
    return f"{settings.public_url.rstrip('/')}/v1/shares/{token}"


def _share(
    job: JobColumns,
    settings: Settings,
    users: dict[uuid.UUID, repo.SharerColumns],
    orgs: dict[uuid.UUID, repo.RecipientColumns],
) -> ShareView | None:
    if not job.share_token:
        return None
    sharer = users.get(job.share_user_id or job.user_id) or users.get(job.user_id)
    org = (
        orgs.get(job.share_recipient_organization_id)
        if job.share_recipient_organization_id
        else None
    )
    created = job.share_created_at or job.created_at
    return ShareView(
        created_at=created,
        updated=job.share_updated_at or created,
        url=share_url(settings, job.share_token),
        public=job.share_public,
        user=sharer or ShareUserView(job.user_id),
        recipient_organization=org,
    )


# Listings carry a bounded preview of each result (a result may be up to 5 MiB).
RESULT_PREVIEW_CHARS = 2000


async def shown(
    session: AsyncSession,
    jobs: Sequence[JobColumns],
    settings: Settings,
    *,
    preview: bool = False,
    demo: set[uuid.UUID] | None = None,
) -> list[ShownJob]:
    """The jobs with their shares' sharers and recipients (two queries, whatever the count);
    with ``preview``, each result cut to ``RESULT_PREVIEW_CHARS`` (listings). ``demo``: which
    of their agents are demo agents, when the caller read it already (else one more query)."""
    shared = [j for j in jobs if j.share_token]
    users = await repo.users_by_id(
        session, [u for j in shared for u in (j.share_user_id, j.user_id) if u is not None]
    )
    orgs = await repo.organizations_by_id(
        session,
        [j.share_recipient_organization_id for j in shared if j.share_recipient_organization_id],
    )
    if demo is None:
        demo = await repo.demo_agent_ids(session, list({j.agent_id for j in jobs}))
    return [
        ShownJob(
            job, _share(job, settings, users, orgs), preview=preview, is_demo=job.agent_id in demo
        )
        for job in jobs
    ]


async def shown_one(session: AsyncSession, job: Job, settings: Settings) -> ShownJob:
    return (await shown(session, [job], settings))[0]


# ---- creation ----------------------------------------------------------------------------


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


def _dynamic_ceiling(limit: int | None, settings: Settings) -> int:
    """A Dynamic-priced agent is bought through a payment node, up to the buyer's ceiling
    (held at creation; the seller's signed price, fee included, is captured, the rest given
    back — docs/payments.md, "Dynamic prices")."""
    if settings.payment_backend != "masumi":
        raise BadRequest.field(
            "agentId", "the agent is Dynamic-priced: it is bought only through a payment node"
        )
    if limit is None or limit <= 0:
        raise BadRequest.field(
            "maxAcceptedCredits",
            "the agent is Dynamic-priced: give the most credits you accept (above 0)",
        )
    return limit


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


async def _replay(session: AsyncSession, job: Job, digest: str, settings: Settings) -> CreatedJob:
    if job.request_hash != digest:
        raise BadRequest.field(
            "Idempotency-Key", "was already used for a different request; use a new key"
        )
    return CreatedJob(await shown_one(session, job, settings), replayed=True)


async def _task_id(
    session: AsyncSession, principal: Principal, task_id: str | None
) -> uuid.UUID | None:
    if task_id is None:
        return None
    parsed = parse_uuid(task_id)
    task = await repo.task_in_workspace(session, parsed, principal.workspace_id) if parsed else None
    if task is None:
        raise NotFound(f"Task {task_id} not found")
    if task.archived_at is not None:
        raise BadRequest.field("taskId", f"task {task_id} is archived")
    return task.id


NOT_YOUR_ORGANIZATION = "no organization you belong to has this identifier"


async def _share_target(
    session: AsyncSession, principal: Principal, request: JobShareRequest, at: str = ""
) -> Organization | None:
    """The recipient organization: one the caller belongs to. Unknown organizations and ones the
    caller is not in get the same answer (no probing of other tenants' ids or slugs). Errors
    name ``at`` + the field (``jobShareRequest.`` in a job's creation body)."""

    async def mine(found: Organization | None) -> Organization | None:
        if found is None:
            return None
        member = await auth.is_org_member(session, principal.user_id, found.id)
        return found if member else None

    org: Organization | None = None
    if request.recipientOrganizationId is not None:
        parsed = parse_uuid(request.recipientOrganizationId)
        org = await mine(await accounts.organization_by_id(session, parsed) if parsed else None)
        if org is None:
            raise BadRequest.field(f"{at}recipientOrganizationId", NOT_YOUR_ORGANIZATION)
    if request.recipientOrganizationSlug is not None:
        by_slug = await mine(
            await auth.organization_by_slug(session, request.recipientOrganizationSlug)
        )
        if by_slug is None:
            raise BadRequest.field(f"{at}recipientOrganizationSlug", NOT_YOUR_ORGANIZATION)
        if org is not None and org.id != by_slug.id:
            raise BadRequest.field(
                f"{at}recipientOrganizationSlug",
                "names another organization than recipientOrganizationId",
            )
        org = by_slug
    if not request.public and org is None:
        raise BadRequest.field(
            at.rstrip(".") or "public", "a share that is not public needs a recipient organization"
        )
    return org


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


def _input_problems(schema: dict[str, Any] | None, data: dict[str, Any]) -> None:
    problems = validate_input(schema, data)
    if problems:
        first = problems[0]
        raise BadRequest(
            f"inputData.{first.field}: {first.reason}"
            + (f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""),
            details=[FieldError(f"inputData.{p.field}", p.reason) for p in problems],
        )


def price_limit_problem(agent: Any, body: JobCreate) -> str | None:
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


async def create_job(
    session: AsyncSession,
    principal: Principal,
    agent_id: str,
    body: JobCreate,
    *,
    settings: Settings,
    idempotency_key: str | None = None,
) -> CreatedJob:
    """Validate, hold the price, enqueue. 402 when the workspace's credits are short."""
    principal.require(Permission.JOBS_WRITE)
    key = _clean_idempotency_key(idempotency_key)
    digest = _request_hash(principal, agent_id, body) if key is not None else ""
    if key is not None:
        existing = await repo.by_idempotency_key(session, principal.user_id, key)
        if existing is not None:
            return await _replay(session, existing, digest, settings)

    agent = await agents_service.get_for_job(session, agent_id)
    if agent.status != AgentStatus.VERIFIED:
        raise BadRequest.field(
            "agentId", f"agent {agent_id} is {agent.status}; only VERIFIED agents take jobs"
        )
    price = agent.price + agent.fee
    limit = _max_credits(body)
    dynamic = agent.pricing_type == PricingType.DYNAMIC
    if dynamic:  # the seller names each job's price: hold the ceiling the buyer accepts
        price = _dynamic_ceiling(limit, settings)
    elif (problem := price_limit_problem(agent, body)) is not None:
        raise BadRequest.field("maxAcceptedCredits", problem)
    data = body.inputData or {}
    _check_sent_schema(body.inputSchema, agent.input_schema)
    _input_problems(agent.input_schema, data)
    await files_service.check_job_inputs(session, principal, agent.input_schema, data)
    hook = notifications.check_job_webhook(
        body.webhook, body.webhookEventsFilter, OutboundPolicy.from_setting(settings.outbound_allow)
    )
    task_id = await _task_id(session, principal, body.taskId)
    share_org = (
        await _share_target(session, principal, body.jobShareRequest, "jobShareRequest.")
        if body.jobShareRequest
        else None
    )
    now = utcnow()
    name = (body.name or "").strip() or f"{agent.name} · {now:%Y-%m-%d %H:%M} UTC"
    paid = price > 0
    values: dict[str, Any] = {
        "id": uuid7(),
        "workspace_id": principal.workspace_id,
        "user_id": principal.user_id,
        "organization_id": principal.organization_id,
        "agent_id": agent.id,
        "task_id": task_id,
        "name": name,
        "status": lifecycle.PENDING,
        "job_type": JobType.PAID if paid else JobType.FREE,
        "input_data": data,
        "identifier_from_purchaser": new_identifier_from_purchaser(),
        # With a payment node, onChainStatus is the node's (null until something is on chain).
        "on_chain_status": (
            lifecycle.FUNDS_LOCKED if paid and settings.payment_backend == "credits" else None
        ),
        "price": price,
        "fee": agent.fee,
        "max_accepted_credits": limit,
        "payment": {"pricing": PricingType.DYNAMIC.value} if dynamic else None,
        "idempotency_key": key,
        "request_hash": digest or None,
        "dispatch_state": "queued",
        "next_attempt_at": now,
        "attempts": 0,
        "deadline_at": now + timedelta(seconds=settings.job_deadline_seconds),
        "created_at": now,
        "updated_at": now,
    }
    if body.jobShareRequest is not None:
        values.update(
            share_token=secrets.token_urlsafe(24),
            share_public=body.jobShareRequest.public,
            share_recipient_organization_id=share_org.id if share_org else None,
            share_user_id=principal.user_id,
            share_created_at=now,
            share_updated_at=now,
        )
    if key is None:
        job = await repo.insert(session, **values)
    else:
        try:
            async with session.begin_nested():
                job = await repo.insert(session, **values)
        except IntegrityError:
            # A concurrent request with the same key committed first (PostgreSQL waits for it).
            existing = await repo.by_idempotency_key(session, principal.user_id, key)
            if existing is None:
                raise
            return await _replay(session, existing, digest, settings)
    await lifecycle.record_event(
        session, job, "created", to_status=lifecycle.PENDING, detail={"price": to_display(price)}
    )
    if hook is not None:  # the job's own webhook (docs/notifications.md)
        await notifications.add_job_webhook(session, principal.user_id, job.id, hook)
    await signals.job_ready(session)
    # The workspace's and the agent's rows are shared by every job creation of the workspace
    # (of the agent): their locks are taken last, so they are held for the fewest round trips
    # before the commit — they serialise concurrent creations (docs/performance.md).
    await send_notifications(session)
    if paid:
        # An organization's spending caps, in the hold's transaction (billing/caps.py).
        await caps.charge(session, principal, amount=price, task_id=task_id, now=now)
        held = await ledger.hold(
            session,
            workspace_id=principal.workspace_id,
            amount=price,
            job_id=job.id,
            user_id=principal.user_id,
        )
        if held.crossed_low:  # once per fall below the threshold (billing/warnings.py)
            await low_balance.crossed(session, settings, principal.workspace_id, held.balance)
    await agents_repo.increment_job_count(session, agent.id)
    demo = {agent.id} if repo.is_demo_agent(agent) else set()
    return CreatedJob((await shown(session, [job], settings, demo=demo))[0], replayed=False)


# ---- reading -----------------------------------------------------------------------------


# The words Sokosumi's clients use for job statuses (reference/clients.md), either case.
STATUS_ALIASES = {
    "AWAITING_INPUT": lifecycle.INPUT_REQUIRED,
    "AWAITING_PAYMENT": lifecycle.PENDING,
    "PAYMENT_FAILED": lifecycle.FAILED,
    "CANCELED": lifecycle.CANCELLED,
}


def _statuses(value: str | None) -> list[str]:
    if not value:
        return []
    out = []
    for part in value.split(","):
        status = part.strip().upper()
        status = STATUS_ALIASES.get(status, status)
        if status not in lifecycle.ALL_STATUSES:
            raise BadRequest.field(
                "status", f"{part.strip()!r} is not one of {', '.join(lifecycle.ALL_STATUSES)}"
            )
        out.append(status)
    return out


def _limit(limit: int | None) -> int:
    size = DEFAULT_LIMIT if limit is None else limit
    if not 1 <= size <= MAX_LIMIT:
        raise BadRequest.field("limit", f"must be between 1 and {MAX_LIMIT}")
    return size


async def list_jobs(
    session: AsyncSession,
    principal: Principal,
    *,
    settings: Settings,
    agent_id: str | None = None,
    status: str | None = None,
    cursor: str | None = None,
    limit: int | None = None,
    scope: str = "owned",
) -> JobPage:
    """The caller's jobs in the current workspace (``scope=workspace``: every member's), newest
    first, keyset-paged."""
    if scope not in ("owned", "workspace"):
        raise BadRequest.field("scope", "must be owned or workspace")
    agent_uuid: uuid.UUID | None = None
    if agent_id:
        agent_uuid = parse_uuid(agent_id)
        if agent_uuid is None:
            raise BadRequest.field("agentId", "must be an agent id")
    before: uuid.UUID | None = None
    if cursor:
        before = parse_uuid(cursor)
        if before is None:
            raise BadRequest.field("cursor", "must be the nextCursor of the previous page")
    size = _limit(limit)
    jobs = await repo.list_visible(
        session,
        user_id=principal.user_id if scope == "owned" else None,
        workspace_id=principal.workspace_id,
        agent_id=agent_uuid,
        statuses=_statuses(status),
        before_id=before,
        limit=size + 1,
    )
    more = len(jobs) > size
    jobs = jobs[:size]
    demo = {job.agent_id for job in jobs if job.is_demo_agent}
    return JobPage(
        await shown(session, jobs, settings, preview=True, demo=demo),
        Pagination(
            limit=size,
            cursor=cursor or None,
            nextCursor=str(jobs[-1].id) if more and jobs else None,
            hasMore=more,
        ),
    )


async def list_agent_jobs(
    session: AsyncSession,
    principal: Principal,
    agent_id: str,
    *,
    settings: Settings,
    status: str | None = None,
    cursor: str | None = None,
    limit: int | None = None,
) -> JobPage:
    await agents_service.get_shown(session, agent_id)  # hidden agents are 404 here too
    return await list_jobs(
        session,
        principal,
        settings=settings,
        agent_id=agent_id,
        status=status,
        cursor=cursor,
        limit=limit,
    )


async def visible_job(session: AsyncSession, principal: Principal, job_id: str) -> Job:
    return await fetch_by_id(
        job_id,
        "Job",
        lambda parsed: repo.visible(session, parsed, principal.user_id, principal.workspace_id),
    )


async def get_job(
    session: AsyncSession, principal: Principal, job_id: str, *, settings: Settings
) -> ShownJob:
    job, is_demo = await fetch_by_id(
        job_id,
        "Job",
        lambda parsed: repo.visible_with_demo(
            session, parsed, principal.user_id, principal.workspace_id
        ),
    )
    return (await shown(session, [job], settings, demo={job.agent_id} if is_demo else set()))[0]


async def job_events(session: AsyncSession, principal: Principal, job_id: str) -> list[JobEvent]:
    job = await visible_job(session, principal, job_id)
    return list(await repo.events(session, job.id, MAX_EVENTS))


async def job_files(
    session: AsyncSession, principal: Principal, job_id: str, *, settings: Settings
) -> list[attachments.JobFile]:
    """The job's files: uploaded inputs (their ids in the input), and the file URLs of its
    result with what the output collector made of each (files/worker.py)."""
    job = await visible_job(session, principal, job_id)
    found = attachments.files(job)
    kept = {row.source_url: row for row in await files_service.job_files(session, job.id)}
    data = job.input_data or {}
    ids = [parse_uuid(v.strip()) for v in data.values() if isinstance(v, str)]
    inputs = await files_service.files_by_id(
        session, job.workspace_id, [i for i in ids if i is not None]
    )
    return [attachments.uploaded(job, row, settings.public_url) for row in inputs] + [
        attachments.collected(item, kept.get(item.source_url), settings.public_url)
        for item in found
    ]


async def job_links(
    session: AsyncSession, principal: Principal, job_id: str
) -> list[attachments.JobLink]:
    return attachments.links(await visible_job(session, principal, job_id))


def _open_request(job: Job) -> dict[str, Any]:
    request = job.input_request
    if job.status != lifecycle.INPUT_REQUIRED or not request or "answer" in request:
        raise NotFound(f"Job {job.id} has no open input request (status {job.status})")
    return request


async def input_request(
    session: AsyncSession, principal: Principal, job_id: str
) -> InputRequestOut:
    job = await visible_job(session, principal, job_id)
    request = _open_request(job)
    asked = await repo.latest_event_to(session, job.id, lifecycle.INPUT_REQUIRED)
    return InputRequestOut(
        jobId=str(job.id),
        eventId=str(asked.id) if asked else None,
        statusId=request.get("statusId"),
        inputSchema=request.get("inputSchema") or {"input_data": []},
        message=request.get("message") if isinstance(request.get("message"), str) else None,
        requestedAt=request.get("requestedAt"),
    )


# ---- answering and cancelling ------------------------------------------------------------


async def _check_event_id(
    session: AsyncSession, job: Job, request: dict[str, Any], body: JobInputs
) -> None:
    """``eventId`` names the job event that asked: unknown → 400, one that disagrees with
    ``statusId`` → 400, an earlier request's (stale) → 409."""
    if body.eventId is None:
        return
    parsed = parse_uuid(body.eventId)
    event = await repo.event_of_job(session, job.id, parsed) if parsed else None
    if event is None or event.to_status != lifecycle.INPUT_REQUIRED:
        raise BadRequest.field("eventId", f"is not an input request event of job {job.id}")
    latest = await repo.latest_event_to(session, job.id, lifecycle.INPUT_REQUIRED)
    is_open = latest is not None and latest.id == event.id
    asked_status = (event.detail or {}).get("statusId") or (
        request.get("statusId") if is_open else None
    )
    if body.statusId is not None and asked_status is not None and body.statusId != asked_status:
        raise BadRequest.field(
            "eventId", f"names input request {asked_status}, statusId names {body.statusId}"
        )
    if not is_open:
        raise Conflict(
            f"Input request event {event.id} of job {job.id} is no longer open; "
            f"the open one is {latest.id if latest else None}"
        )


async def provide_inputs(
    session: AsyncSession,
    principal: Principal,
    job_id: str,
    body: JobInputs,
    *,
    settings: Settings,
) -> ShownJob:
    """Answer the agent's ``awaiting_input``: the job is RUNNING again and the dispatcher
    delivers the answer to the agent's /provide_input (agents are never called in a request)."""
    principal.require(Permission.JOBS_WRITE)
    job = await visible_job(session, principal, job_id)
    if job.status != lifecycle.INPUT_REQUIRED:
        raise Conflict(f"Job {job.id} is not waiting for input (status {job.status})")
    request = _open_request(job)
    await _check_event_id(session, job, request, body)
    if body.statusId is not None and body.statusId != request.get("statusId"):
        raise Conflict(
            f"Input request {body.statusId} of job {job.id} is no longer open; "
            f"the open one is {request.get('statusId')}"
        )
    _input_problems(request.get("inputSchema"), body.inputData)
    now = utcnow()
    answered = {**request, "answer": body.inputData, "answeredAt": isoformat(now)}
    moved = await lifecycle.transition(
        session,
        job,
        lifecycle.RUNNING,
        detail={"reason": "input provided", "statusId": request.get("statusId")},
        input_request=answered,
        dispatch_state="queued",
        next_attempt_at=now,
        attempts=0,
        # The run's time limit restarts: time spent waiting for the user is not the agent's.
        deadline_at=now + timedelta(seconds=settings.job_deadline_seconds),
    )
    if not moved:
        raise Conflict(f"Job {job.id} changed while the input was given; read it again")
    await signals.job_ready(session)
    return await shown_one(session, job, settings)


async def cancel_job(
    session: AsyncSession, principal: Principal, job_id: str, *, settings: Settings
) -> ShownJob:
    """Cancel an unfinished job; its held credits are refunded at once."""
    principal.require(Permission.JOBS_WRITE)
    job = await visible_job(session, principal, job_id)
    if job.status in lifecycle.FINAL_STATUSES:
        raise Conflict(f"Job {job.id} is already {job.status}")
    paid_on_node: dict[str, Any] = {}
    if job.payment_backend is not None:
        if job.status != lifecycle.INPUT_REQUIRED:
            raise Conflict(
                f"Job {job.id} is being paid through the payment node; it can be cancelled "
                "only while it waits for your input. Ask for a refund "
                "(POST /v1/jobs/{id}/refund) once it completes or fails"
            )
        # Parked (no worker holds it): end it and let the dispatcher get the funds back.
        paid_on_node = {
            "settle": False,
            "payment": {**(job.payment or {}), "autoRefund": True},
            "dispatch_state": "queued",
            "next_attempt_at": utcnow(),
            "attempts": 0,
        }
    if not await lifecycle.transition(
        session,
        job,
        lifecycle.CANCELLED,
        detail={"reason": "cancelled by the user"},
        **paid_on_node,
    ):
        raise Conflict(f"Job {job.id} changed while it was being cancelled; read it again")
    if paid_on_node:
        await signals.job_ready(session)
    return await shown_one(session, job, settings)


# ---- shares ------------------------------------------------------------------------------


async def shared_job(
    session: AsyncSession, token: str, principal: Principal | None, *, settings: Settings
) -> ShownJob:
    """A shared job by its token: public links need no credentials; a share limited to a
    recipient organization is shown to that organization's members (and the owner)."""
    job = await repo.by_share_token(session, token) if len(token) <= 64 else None
    if job is None:
        raise NotFound("Share not found")
    if not job.share_public:
        allowed = principal is not None and (
            principal.user_id == job.user_id
            or (
                job.share_recipient_organization_id is not None
                and await auth.is_org_member(
                    session, principal.user_id, job.share_recipient_organization_id
                )
            )
        )
        if not allowed:
            raise NotFound("Share not found")
    out = await shown_one(session, job, settings)
    agent = await repo.agent(session, job.agent_id)
    return ShownJob(job, out.share, agent_name=agent.name if agent else "")


async def share_job(
    session: AsyncSession,
    principal: Principal,
    job_id: str,
    request: JobShareRequest,
    *,
    settings: Settings,
) -> ShownJob:
    """Share an existing job (its creator only, like every job route; anyone else → 404): a
    public link and/or one for a recipient organization, as ``jobShareRequest`` at creation.
    Sharing a shared job again keeps its link and changes who may see it. The job's own
    ``updatedAt`` is left alone (a share is not a change of the job; the feed keeps its order)."""
    job = await visible_job(session, principal, job_id)
    org = await _share_target(session, principal, request)
    now = utcnow()
    await repo.set_share(
        session,
        job.id,
        token=job.share_token or secrets.token_urlsafe(24),
        public=request.public,
        recipient_organization_id=org.id if org else None,
        user_id=principal.user_id,
        created_at=job.share_created_at if job.share_token else now,
        updated_at=now,
    )
    return await shown_one(session, await repo.refresh(session, job), settings)


async def unshare_job(
    session: AsyncSession, principal: Principal, job_id: str, *, settings: Settings
) -> ShownJob:
    """Revoke the job's share (its creator only; anyone else → 404): its link answers 404 from
    now on; sharing again makes a new link. Revoking an unshared job changes nothing."""
    job = await visible_job(session, principal, job_id)
    if job.share_token:
        await repo.clear_share(session, job.id)
        job = await repo.refresh(session, job)
    return await shown_one(session, job, settings)
