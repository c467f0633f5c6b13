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
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from agora.agents import repository as agents_repo
from agora.agents import service as agents_service
from agora.agents.schemas import Price
from agora.auth.principal import Permission, Principal
from agora.credits import ledger
from agora.dispatch import signals
from agora.identity import repository as identity_repo
from agora.jobs import lifecycle
from agora.jobs import repository as repo
from agora.jobs.schemas import (
    InputRequestOut,
    JobCreate,
    JobEventOut,
    JobInputs,
    JobOut,
    JobShareRequest,
    Pagination,
    SharedJobOut,
    ShareOrganization,
    ShareOut,
    ShareUser,
)
from agora.kit.errors import BadRequest, Conflict, FieldError, NotFound
from agora.kit.ids import fetch_by_id, parse_uuid, uuid7
from agora.kit.money import to_base, to_display
from agora.kit.timeutil import isoformat, utcnow
from agora.mip003.client import new_identifier_from_purchaser
from agora.mip003.validation import validate_input
from agora.models import Job, Organization, User
from agora.settings import Settings

DEFAULT_LIMIT = 20
MAX_LIMIT = 100
MAX_EVENTS = 500
_IDEMPOTENCY_KEY = re.compile(r"^[\x21-\x7e]{1,200}$")


@dataclass(frozen=True)
class CreatedJob:
    job: JobOut
    replayed: bool  # an Idempotency-Key replay: no new job, no new charge


@dataclass(frozen=True)
class JobPage:
    jobs: list[JobOut]
    pagination: Pagination


# ---- rendering ---------------------------------------------------------------------------


def share_url(settings: Settings, token: str) -> str:
    return f"{settings.public_url.rstrip('/')}/v1/shares/{token}"


def _price(credits: int, fee: int) -> Price:
    return Price(credits=to_display(credits), includedFee=to_display(fee))


def _share(
    job: Job,
    settings: Settings,
    users: dict[uuid.UUID, User],
    orgs: dict[uuid.UUID, Organization],
) -> ShareOut | None:
    if not job.share_token:
        return None
    sharer = users.get(job.share_user_id or job.user_id) or users.get(job.user_id)
    org = (
        orgs.get(job.share_recipient_organization_id)
        if job.share_recipient_organization_id
        else None
    )
    return ShareOut(
        createdAt=isoformat(job.share_created_at or job.created_at) or "",
        updated=isoformat(job.share_updated_at or job.share_created_at or job.created_at) or "",
        url=share_url(settings, job.share_token),
        public=job.share_public,
        user=ShareUser(
            id=str(sharer.id) if sharer else str(job.user_id),
            name=sharer.name if sharer else "",
            image=sharer.image if sharer else None,
        ),
        recipientOrganization=ShareOrganization(
            id=str(org.id), name=org.name, slug=org.slug, logo=org.logo
        )
        if org
        else None,
    )


def _input_text(job: Job) -> str:
    return json.dumps(job.input_data or {}, ensure_ascii=False)


async def render(session: AsyncSession, jobs: list[Job], settings: Settings) -> list[JobOut]:
    shared = [j for j in jobs if j.share_token]
    users = await repo.users_by_id(
        session, [u for j in shared for u in (j.share_user_id, j.user_id) if u is not None]
    )
    orgs = await repo.organizations_by_id(
        session,
        [j.share_recipient_organization_id for j in shared if j.share_recipient_organization_id],
    )
    return [
        JobOut(
            id=str(job.id),
            createdAt=isoformat(job.created_at) or "",
            updatedAt=isoformat(job.updated_at) or "",
            name=job.name,
            status=job.status,
            agentId=str(job.agent_id),
            userId=str(job.user_id),
            organizationId=str(job.organization_id) if job.organization_id else None,
            agentJobId=job.agent_job_id,
            agentJobStatus=job.agent_job_status,
            onChainStatus=job.on_chain_status,
            input=_input_text(job),
            result=job.result,
            error=job.error,
            startedAt=isoformat(job.started_at),
            completedAt=isoformat(job.completed_at),
            jobType=job.job_type,
            price=_price(job.price, job.fee),
            refund=_price(job.refund, job.refund_fee),
            share=_share(job, settings, users, orgs),
            jobStatusSettled=job.settled,
            projectId=str(job.project_id) if job.project_id else None,
            taskId=str(job.task_id) if job.task_id else None,
        )
        for job in jobs
    ]


async def render_one(session: AsyncSession, job: Job, settings: Settings) -> JobOut:
    return (await render(session, [job], settings))[0]


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
    return CreatedJob(await render_one(session, job, settings), replayed=True)


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


async def _share_target(session: AsyncSession, request: JobShareRequest) -> Organization | None:
    org: Organization | None = None
    if request.recipientOrganizationId is not None:
        parsed = parse_uuid(request.recipientOrganizationId)
        org = await identity_repo.organization_by_id(session, parsed) if parsed else None
        if org is None:
            raise BadRequest.field(
                "jobShareRequest.recipientOrganizationId", "no such organization"
            )
    if request.recipientOrganizationSlug is not None:
        by_slug = await identity_repo.organization_by_slug(
            session, request.recipientOrganizationSlug
        )
        if by_slug is None:
            raise BadRequest.field(
                "jobShareRequest.recipientOrganizationSlug", "no such organization"
            )
        if org is not None and org.id != by_slug.id:
            raise BadRequest.field(
                "jobShareRequest.recipientOrganizationSlug",
                "names another organization than recipientOrganizationId",
            )
        org = by_slug
    if not request.public and org is None:
        raise BadRequest.field(
            "jobShareRequest", "a share that is not public needs a recipient organization"
        )
    return org


def _input_problems(schema: dict[str, Any] | None, data: dict[str, Any]) -> None:
    problems = validate_input(schema, data)
    if problems:
        first = problems[0]
        raise BadRequest(
            f"inputData.{first.field}: {first.reason}"
            + (f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""),
            details=[FieldError(f"inputData.{p.field}", p.reason) for p in problems],
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
    digest = _request_hash(principal, agent_id, body)
    if key is not None:
        existing = await repo.by_idempotency_key(session, principal.user_id, key)
        if existing is not None:
            return await _replay(session, existing, digest, settings)

    agent = await agents_service.get_shown(session, agent_id)
    if agent.status != "VERIFIED":
        raise BadRequest.field(
            "agentId", f"agent {agent_id} is {agent.status}; only VERIFIED agents take jobs"
        )
    price = agent.price + agent.fee
    limit = _max_credits(body)
    if limit is not None and price > limit:
        raise BadRequest.field(
            "maxAcceptedCredits",
            f"the agent's price is {to_display(price)} credits, above the "
            f"{to_display(limit)} you accept",
        )
    data = body.inputData or {}
    _input_problems(agent.input_schema, data)
    task_id = await _task_id(session, principal, body.taskId)
    share_org = await _share_target(session, body.jobShareRequest) if body.jobShareRequest else None
    now = utcnow()
    name = (body.name or "").strip() or f"{agent.name} · {now:%Y-%m-%d %H:%M} UTC"
    paid = price > 0
    job = Job(
        id=uuid7(),
        workspace_id=principal.workspace_id,
        user_id=principal.user_id,
        organization_id=principal.organization_id,
        agent_id=agent.id,
        task_id=task_id,
        name=name,
        status=lifecycle.PENDING,
        job_type="PAID" if paid else "FREE",
        input_data=data,
        identifier_from_purchaser=new_identifier_from_purchaser(),
        on_chain_status=lifecycle.FUNDS_LOCKED if paid else None,
        price=price,
        fee=agent.fee,
        max_accepted_credits=limit,
        idempotency_key=key,
        request_hash=digest if key else None,
        dispatch_state="queued",
        next_attempt_at=now,
        attempts=0,
        deadline_at=now + timedelta(seconds=settings.job_deadline_seconds),
        created_at=now,
        updated_at=now,
    )
    if body.jobShareRequest is not None:
        job.share_token = secrets.token_urlsafe(24)
        job.share_public = body.jobShareRequest.public
        job.share_recipient_organization_id = share_org.id if share_org else None
        job.share_user_id = principal.user_id
        job.share_created_at = job.share_updated_at = now
    if key is None:
        await repo.add(session, job)
    else:
        try:
            async with session.begin_nested():
                await repo.add(session, job)
        except IntegrityError:
            # A concurrent request with the same key committed first (PostgreSQL waits for it).
            existing = await repo.by_idempotency_key(session, principal.user_id, key)
            if existing is None:
                raise
            return await _replay(session, existing, digest, settings)
    if paid:
        await ledger.hold(
            session,
            workspace_id=principal.workspace_id,
            amount=price,
            job_id=job.id,
            user_id=principal.user_id,
        )
    await lifecycle.record_event(
        session, job, "created", to_status=lifecycle.PENDING, detail={"price": to_display(price)}
    )
    await agents_repo.increment_job_count(session, agent.id)
    await signals.job_ready(session)
    await session.flush()
    return CreatedJob(await render_one(session, job, settings), replayed=False)


# ---- reading -----------------------------------------------------------------------------


def _statuses(value: str | None) -> list[str]:
    if not value:
        return []
    out = []
    for part in value.split(","):
        status = part.strip().upper()
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
) -> JobPage:
    """The caller's jobs in the current workspace, newest first, keyset-paged."""
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
        user_id=principal.user_id,
        workspace_id=principal.workspace_id,
        agent_id=agent_uuid,
        statuses=_statuses(status),
        before_id=before,
        limit=size + 1,
    )
    more = len(jobs) > size
    jobs = jobs[:size]
    return JobPage(
        await render(session, jobs, settings),
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
    parsed = parse_uuid(agent_id)
    if parsed is None or await repo.agent(session, parsed) is None:
        raise NotFound(f"Agent {agent_id} not found")
    return await list_jobs(
        session,
        principal,
        settings=settings,
        agent_id=agent_id,
        status=status,
        cursor=cursor,
        limit=limit,
    )


async def _visible(session: AsyncSession, principal: Principal, job_id: str) -> Job:
    return await fetch_by_id(
        job_id,
        "Job",
        lambda parsed: repo.visible(session, parsed, principal.user_id, principal.workspace_id),
    )


async def get_job(
    session: AsyncSession, principal: Principal, job_id: str, *, settings: Settings
) -> JobOut:
    return await render_one(session, await _visible(session, principal, job_id), settings)


async def job_events(session: AsyncSession, principal: Principal, job_id: str) -> list[JobEventOut]:
    job = await _visible(session, principal, job_id)
    return [
        JobEventOut(
            id=str(e.id),
            type=e.type,
            fromStatus=e.from_status,
            toStatus=e.to_status,
            detail=e.detail or {},
            createdAt=isoformat(e.created_at) or "",
        )
        for e in await repo.events(session, job.id, MAX_EVENTS)
    ]


def _open_request(job: Job) -> dict[str, Any]:
    request = job.input_request
    if job.status != lifecycle.INPUT_REQUIRED or not request or "answer" in request:
        raise NotFound(f"Job {job.id} has no open input request (status {job.status})")
    return request


async def input_request(
    session: AsyncSession, principal: Principal, job_id: str
) -> InputRequestOut:
    job = await _visible(session, principal, job_id)
    request = _open_request(job)
    return InputRequestOut(
        jobId=str(job.id),
        statusId=request.get("statusId"),
        inputSchema=request.get("inputSchema") or {"input_data": []},
        requestedAt=request.get("requestedAt"),
    )


# ---- answering and cancelling ------------------------------------------------------------


async def provide_inputs(
    session: AsyncSession,
    principal: Principal,
    job_id: str,
    body: JobInputs,
    *,
    settings: Settings,
) -> JobOut:
    """Answer the agent's ``awaiting_input``: the job is RUNNING again and the dispatcher
    delivers the answer to the agent's /provide_input (agents are never called in a request)."""
    principal.require(Permission.JOBS_WRITE)
    job = await _visible(session, principal, job_id)
    if job.status != lifecycle.INPUT_REQUIRED:
        raise Conflict(f"Job {job.id} is not waiting for input (status {job.status})")
    request = _open_request(job)
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
    return await render_one(session, job, settings)


async def cancel_job(
    session: AsyncSession, principal: Principal, job_id: str, *, settings: Settings
) -> JobOut:
    """Cancel an unfinished job; its held credits are refunded at once."""
    principal.require(Permission.JOBS_WRITE)
    job = await _visible(session, principal, job_id)
    if job.status in lifecycle.FINAL_STATUSES:
        raise Conflict(f"Job {job.id} is already {job.status}")
    if not await lifecycle.transition(
        session, job, lifecycle.CANCELLED, detail={"reason": "cancelled by the user"}
    ):
        raise Conflict(f"Job {job.id} changed while it was being cancelled; read it again")
    return await render_one(session, job, settings)


# ---- shares ------------------------------------------------------------------------------


async def shared_job(
    session: AsyncSession, token: str, principal: Principal | None, *, settings: Settings
) -> SharedJobOut:
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
                and await identity_repo.is_org_member(
                    session, principal.user_id, job.share_recipient_organization_id
                )
            )
        )
        if not allowed:
            raise NotFound("Share not found")
    out = await render_one(session, job, settings)
    agent = await repo.agent(session, job.agent_id)
    assert out.share is not None
    return SharedJobOut(
        id=out.id,
        name=out.name,
        status=out.status,
        agentId=out.agentId,
        agentName=agent.name if agent else "",
        input=out.input,
        result=out.result,
        createdAt=out.createdAt,
        updatedAt=out.updatedAt,
        completedAt=out.completedAt,
        share=out.share,
    )
