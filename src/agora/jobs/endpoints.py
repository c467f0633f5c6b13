"""Job endpoints. Jobs and agent jobs are the key family (Envelope A, Simple errors); the public
share view is the bearer family (Envelope B). Decisions: docs/jobs.md."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import Header, Path, Query, Request, Response
from fastapi.responses import StreamingResponse
from fastapi.sse import EventSourceResponse

from agora.auth.dependencies import JobsWriter, OptionalPrincipal, Reader, SessionDep, SettingsDep
from agora.jobs import results, service, stream
from agora.jobs.schemas import (
    InputRequestOut,
    JobCreate,
    JobEventOut,
    JobFileOut,
    JobInputs,
    JobLinkOut,
    JobOut,
    JobPage,
    JobShareRequest,
    SharedJobOut,
    job_item,
)
from agora.kit import csvexport, wire
from agora.kit.envelopes import EnvelopeA, EnvelopeB, meta_b, now_iso, written_a
from agora.kit.families import bearer_router, key_router
from agora.kit.openapi import errors

router = key_router(tags=["jobs"])
shares_router = bearer_router(tags=["jobs"])

# Ids in the path stay ``str``: the services parse them, so a malformed id answers the same 404
# as an unknown one (or another workspace's).
JobId = Annotated[str, Path(alias="jobId")]
AgentId = Annotated[str, Path(alias="agentId")]  # the agent whose jobs a route lists or creates

AgentIdQuery = Annotated[str | None, Query(max_length=100, description="Only this agent's jobs.")]
StatusQuery = Annotated[
    str | None,
    Query(
        max_length=200,
        description="Comma-separated: PENDING, RUNNING, INPUT_REQUIRED, COMPLETED, FAILED, "
        "CANCELLED.",
    ),
]
CursorQuery = Annotated[
    str | None, Query(max_length=100, description="`pagination.nextCursor` of the previous page.")
]
IdempotencyKey = Annotated[
    str | None,
    Header(
        alias="Idempotency-Key",
        max_length=200,
        description="Same key + same body → the same job, charged once.",
    ),
]
LimitQuery = Annotated[int | None, Query(ge=1, le=100, description="Page size (default 20).")]


def _job(job: service.ShownJob) -> EnvelopeA[JobOut]:
    return EnvelopeA[JobOut](data=job)


def _page(page: service.JobPage) -> Response:
    """A page of jobs, each written by ``job_item`` (kit/wire.py)."""
    timestamp = now_iso()
    return wire.answer(
        written_a(
            [job_item(job) for job in page.jobs],
            timestamp,
            pagination=page.pagination.model_dump(mode="json"),
        ),
        lambda: JobPage(data=page.jobs, pagination=page.pagination, timestamp=timestamp),
    )


@router.get("/jobs", response_model=JobPage, operation_id="listJobs")
async def list_jobs(
    session: SessionDep,
    principal: Reader,
    settings: SettingsDep,
    agentId: AgentIdQuery = None,
    status: StatusQuery = None,
    cursor: CursorQuery = None,
    limit: LimitQuery = None,
    scope: Annotated[
        Literal["owned", "workspace"],
        Query(description="owned (yours, default) or workspace (every member's)."),
    ] = "owned",
) -> Response:
    """The caller's jobs in the current workspace (`scope=workspace`: every member's), newest
    first. Paging: `pagination` beside `data` (send `nextCursor` back as `cursor` while
    `hasMore`)."""
    return _page(
        await service.list_jobs(
            session,
            principal,
            settings=settings,
            agent_id=agentId,
            status=status,
            cursor=cursor,
            limit=limit,
            scope=scope,
        )
    )


@router.get(
    "/jobs/export",
    operation_id="exportJobs",
    response_class=StreamingResponse,
    responses=csvexport.CSV_ANSWER,
)
async def export_jobs(
    request: Request,
    principal: Reader,
    agentId: AgentIdQuery = None,
    status: StatusQuery = None,
    scope: Annotated[
        Literal["owned", "workspace"],
        Query(description="owned (yours, default) or workspace (every member's)."),
    ] = "owned",
) -> StreamingResponse:
    """Every job of the list (`GET /v1/jobs`'s filters and order) as CSV, streamed: one line per
    job, its price, fee, refund and net credits; cells a spreadsheet would run as a formula are
    prefixed with `'` (docs/jobs.md, "Exports")."""
    export = service.jobs_export(principal, agent_id=agentId, status=status, scope=scope)
    return csvexport.download(request.app.state.db, export)


@router.get("/jobs/{jobId}", operation_id="getJob")
async def get_job(
    job_id: JobId, session: SessionDep, principal: Reader, settings: SettingsDep
) -> EnvelopeA[JobOut]:
    """One of the caller's jobs."""
    return _job(await service.get_job(session, principal, job_id, settings=settings))


@router.get(
    "/jobs/{jobId}/result",
    operation_id="getJobResult",
    response_class=Response,
    openapi_extra=errors(409),
    responses={
        "200": {
            "description": "The result: Markdown (as the agent gave it), JSON or CSV.",
            "content": {
                "text/markdown": {"schema": {"type": "string"}},
                "application/json": {},
                "text/csv": {"schema": {"type": "string"}},
            },
        }
    },
)
async def get_job_result(
    job_id: JobId,
    session: SessionDep,
    principal: Reader,
    format: Annotated[
        Literal["markdown", "json", "csv"],
        Query(description="markdown (default: the text as the agent gave it), json or csv."),
    ] = "markdown",
) -> Response:
    """The job's result as a download. A result that is a JSON object or array is kept as JSON:
    `format=json` answers it as JSON (another result: the text as a JSON string), `format=csv`
    as CSV (409 when the result is not JSON). 409 while the job has no result."""
    found = await results.result_file(session, principal, job_id, format)
    return Response(
        found.body,
        media_type=found.media_type,
        headers={
            "Content-Disposition": f'attachment; filename="{found.filename}"',
            "X-Content-Type-Options": "nosniff",
        },
    )


@router.get("/jobs/{jobId}/events", operation_id="getJobEvents")
async def get_job_events(
    job_id: JobId, session: SessionDep, principal: Reader
) -> EnvelopeA[list[JobEventOut]]:
    """Every state change of the job, oldest first."""
    return EnvelopeA[list[JobEventOut]](data=await service.job_events(session, principal, job_id))


@router.get("/jobs/{jobId}/files", operation_id="getJobFiles")
async def get_job_files(
    job_id: JobId, session: SessionDep, principal: Reader, settings: SettingsDep
) -> EnvelopeA[list[JobFileOut]]:
    """The job's files: uploaded inputs, and the result's file URLs with their state (STORED by
    Agora, TOO_LARGE, REFUSED, UNREACHABLE; AVAILABLE until collected)."""
    return EnvelopeA[list[JobFileOut]](
        data=await service.job_files(session, principal, job_id, settings=settings)
    )


@router.get("/jobs/{jobId}/links", operation_id="getJobLinks")
async def get_job_links(
    job_id: JobId, session: SessionDep, principal: Reader
) -> EnvelopeA[list[JobLinkOut]]:
    """Links in the job's result Markdown (empty until the job completes)."""
    return EnvelopeA[list[JobLinkOut]](data=await service.job_links(session, principal, job_id))


@router.get(
    "/jobs/{jobId}/stream",
    operation_id="streamJobEvents",
    response_class=StreamingResponse,  # documents the stream; the answer is a LiveResponse
    openapi_extra=errors(429, 503),
    responses={
        200: {
            "description": "Server-sent events: `retry`, then one event per job event (`id:` "
            "the event id, `event:` status | input_requested | result, `data:` the JobEvent "
            "as JSON); `: heartbeat` comments; ends after the event that finishes the job.",
            "content": {"text/event-stream": {"schema": {"type": "string"}}},
        }
    },
)
async def stream_job_events(
    job_id: JobId,
    request: Request,
    session: SessionDep,
    principal: Reader,
    last_event_id: Annotated[str | None, Header(alias="Last-Event-ID", max_length=100)] = None,
) -> EventSourceResponse:
    """The job's events live (server-sent events), resumable with `Last-Event-ID`. Events
    arrive as they are committed, from any process (PostgreSQL LISTEN/NOTIFY; docs/web.md);
    429 with `Retry-After` when the key (or the user) has too many streams open, 503 with
    `Retry-After` when this server has."""
    await service.job_events(session, principal, job_id)  # 404 before the stream starts
    address = request.client.host if request.client else "unknown"
    streams = request.app.state.job_streams
    return await stream.open_job_stream(streams, principal, job_id, last_event_id, address)


@router.get(
    "/jobs/{jobId}/input-request",
    operation_id="getJobInputRequest",
)
async def get_input_request(
    job_id: JobId, session: SessionDep, principal: Reader
) -> EnvelopeA[InputRequestOut]:
    """The agent's open request for input (404 when the job is not INPUT_REQUIRED)."""
    return EnvelopeA[InputRequestOut](data=await service.input_request(session, principal, job_id))


@router.post(
    "/jobs/{jobId}/inputs",
    operation_id="provideJobInputs",
    openapi_extra=errors(409),
)
async def provide_inputs(
    job_id: JobId,
    body: JobInputs,
    session: SessionDep,
    principal: JobsWriter,
    settings: SettingsDep,
) -> EnvelopeA[JobOut]:
    """Answer the agent's input request; the job is RUNNING again."""
    return _job(await service.provide_inputs(session, principal, job_id, body, settings=settings))


@router.post(
    "/jobs/{jobId}/cancel",
    operation_id="cancelJob",
    openapi_extra=errors(409),
)
async def cancel_job(
    job_id: JobId, session: SessionDep, principal: JobsWriter, settings: SettingsDep
) -> EnvelopeA[JobOut]:
    """Cancel an unfinished job; its credits are refunded."""
    return _job(await service.cancel_job(session, principal, job_id, settings=settings))


@router.post(
    "/jobs/{jobId}/rerun",
    status_code=201,
    operation_id="rerunJob",
    openapi_extra=errors(402, 409),
)
async def rerun_job(
    job_id: JobId,
    response: Response,
    session: SessionDep,
    principal: JobsWriter,
    settings: SettingsDep,
    idempotency_key: IdempotencyKey = None,
) -> EnvelopeA[JobOut]:
    """Run one of your jobs again: a new job of the same agent with the same input (and the same
    maximum credits), admitted as `POST /v1/agents/{agentId}/jobs` (402 when short). Another
    person's job is 404."""
    created = await service.rerun_job(
        session, principal, job_id, settings=settings, idempotency_key=idempotency_key
    )
    if created.replayed:
        response.headers["Idempotent-Replayed"] = "true"
    return _job(created.job)


@router.put("/jobs/{jobId}/share", operation_id="shareJob")
async def share_job(
    job_id: JobId,
    body: JobShareRequest,
    session: SessionDep,
    principal: JobsWriter,
    settings: SettingsDep,
) -> EnvelopeA[JobOut]:
    """Share an existing job (as `jobShareRequest` at creation): a public link and/or one for an
    organization you belong to. Sharing a shared job again keeps its link (`share.url`) and
    changes who may open it."""
    return _job(await service.share_job(session, principal, job_id, body, settings=settings))


@router.delete("/jobs/{jobId}/share", operation_id="unshareJob")
async def unshare_job(
    job_id: JobId, session: SessionDep, principal: JobsWriter, settings: SettingsDep
) -> EnvelopeA[JobOut]:
    """Revoke the job's share: its link answers 404 from now on (`share` is null)."""
    return _job(await service.unshare_job(session, principal, job_id, settings=settings))


@router.get("/agents/{agentId}/jobs", response_model=JobPage, operation_id="listAgentJobs")
async def list_agent_jobs(
    agent_id: AgentId,
    session: SessionDep,
    principal: Reader,
    settings: SettingsDep,
    status: StatusQuery = None,
    cursor: CursorQuery = None,
    limit: LimitQuery = None,
) -> Response:
    """The caller's jobs for this agent, newest first (paged like `GET /v1/jobs`)."""
    return _page(
        await service.list_agent_jobs(
            session,
            principal,
            agent_id,
            settings=settings,
            status=status,
            cursor=cursor,
            limit=limit,
        )
    )


@router.post(
    "/agents/{agentId}/jobs",
    status_code=201,
    operation_id="createJob",
    openapi_extra=errors(402, 409),
)
async def create_job(
    agent_id: AgentId,
    body: JobCreate,
    response: Response,
    session: SessionDep,
    principal: JobsWriter,
    settings: SettingsDep,
    idempotency_key: IdempotencyKey = None,
) -> EnvelopeA[JobOut]:
    """Create a job: the input is validated against the agent's input schema, the price is held
    on the workspace's credits (402 when short) and the job is dispatched at once."""
    created = await service.create_job(
        session, principal, agent_id, body, settings=settings, idempotency_key=idempotency_key
    )
    if created.replayed:
        response.headers["Idempotent-Replayed"] = "true"
    return _job(created.job)


@shares_router.get(
    "/shares/{token}",
    operation_id="getSharedJob",
    openapi_extra={"security": [{}, {"bearerAuth": []}, {"apiKeyHeader": []}]},
)
async def get_shared_job(
    token: str,
    request: Request,
    session: SessionDep,
    principal: OptionalPrincipal,
    settings: SettingsDep,
) -> EnvelopeB[SharedJobOut]:
    """A shared job. Public links need no credentials; a share for a recipient organization is
    shown to its members."""
    shared = await service.shared_job(session, token, principal, settings=settings)
    return EnvelopeB[SharedJobOut](data=shared, meta=meta_b(request))
