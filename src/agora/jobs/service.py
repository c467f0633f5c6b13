"""Job rules (DESIGN §3 "Jobs"; decisions in docs/jobs.md): the actions on a job and the
domain's face for the others.

Hiring (``create_job``) is the admission (``jobs.admission``: its checks and its writes in lock
order); shares are ``jobs.sharing``; what the responses show is ``jobs.views``. Here: reading
jobs, answering an agent's input request, cancelling. Status changes go through
``jobs.lifecycle`` only. Every function takes a session and a Principal (no Request), so REST
endpoints, pages and MCP tools share them.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import timedelta
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from agora.agents import service as agents_service
from agora.auth.principal import Permission, Principal
from agora.files import attachments
from agora.files import service as files_service
from agora.jobs import lifecycle, signals
from agora.jobs import repository as repo
from agora.jobs.admission import CreatedJob, create_job, input_problems, price_limit_problem
from agora.jobs.repository import DEMO_AGENT_PATH
from agora.jobs.schemas import InputRequestOut, JobCreate, JobInputs, Pagination
from agora.jobs.sharing import share_job, shared_job, unshare_job
from agora.jobs.views import JobPage, ShownJob, shown, shown_one, visible_job
from agora.kit.csvexport import Export
from agora.kit.errors import BadRequest, Conflict, NotFound
from agora.kit.ids import fetch_by_id, parse_uuid
from agora.kit.money import to_display
from agora.kit.timeutil import isoformat, utcnow
from agora.models import Job, JobEvent
from agora.models.rows import JobColumns
from agora.models.statuses import AgentProtocol
from agora.settings import Settings

__all__ = [
    "DEMO_AGENT_PATH",
    "CreatedJob",
    "JobPage",
    "ShownJob",
    "cancel_job",
    "create_job",
    "get_job",
    "input_request",
    "job_events",
    "job_files",
    "job_links",
    "jobs_export",
    "list_agent_jobs",
    "list_jobs",
    "price_limit_problem",
    "provide_inputs",
    "rerun_form",
    "rerun_job",
    "share_job",
    "shared_job",
    "shown",
    "shown_one",
    "unshare_job",
    "visible_job",
]

DEFAULT_LIMIT = 20
MAX_LIMIT = 100
MAX_EVENTS = 500


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
    input_problems(request.get("inputSchema"), body.inputData)
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
        deadline_at=now + timedelta(seconds=settings.dispatch.job_deadline_seconds),
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
        paid_on_node = lifecycle.parked_cancellation(job)
    if not await lifecycle.transition(
        session,
        job,
        lifecycle.CANCELLED,
        detail={"reason": "cancelled by the user"},
        **paid_on_node,
    ):
        raise Conflict(f"Job {job.id} changed while it was being cancelled; read it again")
    tell_agent = (
        job.agent_job_id is not None
        and await repo.agent_protocol(session, job.agent_id) == AgentProtocol.A2A
    )
    if tell_agent:  # the dispatcher sends tasks/cancel (dispatch/a2a.py, docs/a2a.md)
        await repo.queue_again(session, job.id, utcnow())
    if paid_on_node or tell_agent:
        await signals.job_ready(session)
    return await shown_one(session, job, settings)


# ---- running again -----------------------------------------------------------------------


def _rerun_body(row: JobColumns) -> JobCreate:
    """What running a job again asks: the same input and the same maximum (a Dynamic-priced
    agent's ceiling); no name, share, task or webhook (docs/jobs.md, "Run again")."""
    limit = row.max_accepted_credits
    return JobCreate(
        inputData=dict(row.input_data or {}),
        maxAcceptedCredits=to_display(limit) if limit is not None else None,
    )


async def rerun_form(
    session: AsyncSession, principal: Principal, job_id: str, agent_id: str, *, settings: Settings
) -> JobCreate:
    """What the hire form of ``agent_id`` is filled in with to run the caller's own job
    ``job_id`` again (a job of another agent, or anyone else's, is 404)."""
    shown = await get_job(session, principal, job_id, settings=settings)
    if shown.row.agent_id != parse_uuid(agent_id):
        raise NotFound(f"Job {job_id} not found")
    return _rerun_body(shown.row)


async def rerun_job(
    session: AsyncSession,
    principal: Principal,
    job_id: str,
    *,
    settings: Settings,
    idempotency_key: str | None = None,
) -> CreatedJob:
    """A new job of the same agent with the same input as the caller's own job ``job_id``
    (anyone else's is 404), admitted like any other (credits, caps, schema, Idempotency-Key)."""
    principal.require(Permission.JOBS_WRITE)
    job = await visible_job(session, principal, job_id)
    return await create_job(
        session,
        principal,
        str(job.agent_id),
        _rerun_body(job),
        settings=settings,
        idempotency_key=idempotency_key,
    )


# ---- the job list as CSV (docs/jobs.md, "Exports") ---------------------------------------

EXPORT_HEADER = (
    "job_id", "created_at", "completed_at", "name", "status", "agent_id", "agent_name",
    "user_id", "project_id", "task_id", "price", "fee", "refund", "credits",
)  # fmt: skip


def _export_cells(row: repo.ExportedJob) -> list[object]:
    return [
        row.id, isoformat(row.created_at), isoformat(row.completed_at), row.name, row.status,
        row.agent_id, row.agent_name or "", row.user_id, row.project_id, row.task_id,
        to_display(row.price), to_display(row.fee), to_display(row.refund),
        to_display(row.price - row.refund),
    ]  # fmt: skip


def _export_key(row: repo.ExportedJob) -> uuid.UUID:
    return row.id


def jobs_export(
    principal: Principal,
    *,
    agent_id: str | None = None,
    status: str | None = None,
    scope: str = "owned",
) -> Export[repo.ExportedJob, uuid.UUID]:
    """The job list (``list_jobs``'s filters and order, newest first) as CSV rows: every job,
    read page by page. Bad filters are refused here, before anything is streamed."""
    if scope not in ("owned", "workspace"):
        raise BadRequest.field("scope", "must be owned or workspace")
    agent_uuid: uuid.UUID | None = None
    if agent_id:
        agent_uuid = parse_uuid(agent_id)
        if agent_uuid is None:
            raise BadRequest.field("agentId", "must be an agent id")
    statuses = _statuses(status)
    user_id = principal.user_id if scope == "owned" else None
    workspace_id = principal.workspace_id

    async def page(
        session: AsyncSession, before: uuid.UUID | None, limit: int
    ) -> Sequence[repo.ExportedJob]:
        return await repo.export_page(
            session, user_id=user_id, workspace_id=workspace_id, agent_id=agent_uuid,
            statuses=statuses, before_id=before, limit=limit,
        )  # fmt: skip

    return Export("jobs.csv", EXPORT_HEADER, page, _export_key, _export_cells)
