"""Job endpoints. Jobs and agent jobs are the key family (Envelope A, Simple errors); the public
share view is the bearer family (Envelope B). Decisions: docs/jobs.md."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Depends, Header, Query, Request, Response

from agora.auth.dependencies import (
    SessionDep,
    SettingsDep,
    get_optional_principal,
    require,
)
from agora.auth.principal import Permission, Principal
from agora.jobs import service
from agora.jobs.schemas import (
    InputRequestOut,
    JobCreate,
    JobEventOut,
    JobInputs,
    JobOut,
    JobPage,
    SharedJobOut,
)
from agora.kit.envelopes import EnvelopeA, EnvelopeB, envelope_a, envelope_b, now_iso
from agora.kit.families import bearer_router, key_router

router = key_router(tags=["jobs"])
shares_router = bearer_router(tags=["jobs"])

JobWriter = Annotated[Principal, require(Permission.JOBS_WRITE)]
Reader = Annotated[Principal, require(Permission.READ)]
OptionalPrincipal = Annotated[Principal | None, Depends(get_optional_principal)]

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
LimitQuery = Annotated[int | None, Query(ge=1, le=100, description="Page size (default 20).")]


def _page(page: service.JobPage) -> dict[str, Any]:
    return {
        "success": True,
        "data": page.jobs,
        "pagination": page.pagination,
        "timestamp": now_iso(),
    }


@router.get("/jobs", response_model=JobPage, operation_id="listJobs")
async def list_jobs(
    session: SessionDep,
    principal: Reader,
    settings: SettingsDep,
    agentId: AgentIdQuery = None,
    status: StatusQuery = None,
    cursor: CursorQuery = None,
    limit: LimitQuery = None,
) -> dict[str, Any]:
    """The caller's jobs in the current workspace, newest first. Paging: `pagination` beside
    `data` (send `nextCursor` back as `cursor` while `hasMore`)."""
    return _page(
        await service.list_jobs(
            session,
            principal,
            settings=settings,
            agent_id=agentId,
            status=status,
            cursor=cursor,
            limit=limit,
        )
    )


@router.get("/jobs/{jobId}", response_model=EnvelopeA[JobOut], operation_id="getJob")
async def get_job(
    jobId: str, session: SessionDep, principal: Reader, settings: SettingsDep
) -> dict[str, Any]:
    """One of the caller's jobs."""
    return envelope_a(await service.get_job(session, principal, jobId, settings=settings))


@router.get(
    "/jobs/{jobId}/events", response_model=EnvelopeA[list[JobEventOut]], operation_id="getJobEvents"
)
async def get_job_events(jobId: str, session: SessionDep, principal: Reader) -> dict[str, Any]:
    """Every state change of the job, oldest first."""
    return envelope_a(await service.job_events(session, principal, jobId))


@router.get(
    "/jobs/{jobId}/input-request",
    response_model=EnvelopeA[InputRequestOut],
    operation_id="getJobInputRequest",
)
async def get_input_request(jobId: str, session: SessionDep, principal: Reader) -> dict[str, Any]:
    """The agent's open request for input (404 when the job is not INPUT_REQUIRED)."""
    return envelope_a(await service.input_request(session, principal, jobId))


@router.post(
    "/jobs/{jobId}/inputs",
    response_model=EnvelopeA[JobOut],
    operation_id="provideJobInputs",
    openapi_extra={"x-agora-errors": [409]},
)
async def provide_inputs(
    jobId: str, body: JobInputs, session: SessionDep, principal: JobWriter, settings: SettingsDep
) -> dict[str, Any]:
    """Answer the agent's input request; the job is RUNNING again."""
    return envelope_a(
        await service.provide_inputs(session, principal, jobId, body, settings=settings)
    )


@router.post(
    "/jobs/{jobId}/cancel",
    response_model=EnvelopeA[JobOut],
    operation_id="cancelJob",
    openapi_extra={"x-agora-errors": [409]},
)
async def cancel_job(
    jobId: str, session: SessionDep, principal: JobWriter, settings: SettingsDep
) -> dict[str, Any]:
    """Cancel an unfinished job; its credits are refunded."""
    return envelope_a(await service.cancel_job(session, principal, jobId, settings=settings))


@router.get("/agents/{agentId}/jobs", response_model=JobPage, operation_id="listAgentJobs")
async def list_agent_jobs(
    agentId: str,
    session: SessionDep,
    principal: Reader,
    settings: SettingsDep,
    status: StatusQuery = None,
    cursor: CursorQuery = None,
    limit: LimitQuery = None,
) -> dict[str, Any]:
    """The caller's jobs for this agent, newest first (paged like `GET /v1/jobs`)."""
    return _page(
        await service.list_agent_jobs(
            session,
            principal,
            agentId,
            settings=settings,
            status=status,
            cursor=cursor,
            limit=limit,
        )
    )


@router.post(
    "/agents/{agentId}/jobs",
    response_model=EnvelopeA[JobOut],
    status_code=201,
    operation_id="createJob",
    openapi_extra={"x-agora-errors": [402]},
)
async def create_job(
    agentId: str,
    body: JobCreate,
    response: Response,
    session: SessionDep,
    principal: JobWriter,
    settings: SettingsDep,
    idempotency_key: Annotated[
        str | None,
        Header(
            alias="Idempotency-Key",
            max_length=200,
            description="Same key + same body → the same job, charged once.",
        ),
    ] = None,
) -> dict[str, Any]:
    """Create a job: the input is validated against the agent's input schema, the price is held
    on the workspace's credits (402 when short) and the job is dispatched at once."""
    created = await service.create_job(
        session, principal, agentId, body, settings=settings, idempotency_key=idempotency_key
    )
    if created.replayed:
        response.headers["Idempotent-Replayed"] = "true"
    return envelope_a(created.job)


@shares_router.get(
    "/shares/{token}",
    response_model=EnvelopeB[SharedJobOut],
    operation_id="getSharedJob",
    openapi_extra={"security": [{}, {"bearerAuth": []}, {"apiKeyHeader": []}]},
)
async def get_shared_job(
    token: str,
    request: Request,
    session: SessionDep,
    principal: OptionalPrincipal,
    settings: SettingsDep,
) -> dict[str, Any]:
    """A shared job. Public links need no credentials; a share for a recipient organization is
    shown to its members."""
    return envelope_b(
        request, await service.shared_job(session, token, principal, settings=settings)
    )
