"""/v1/admin/users, /v1/admin/organizations, /v1/admin/jobs, /v1/admin/dashboard (bearer
family: Envelope B; admin keys). The console's web pages (console/pages.py) call the same use cases
with an operator's browser session."""

from __future__ import annotations

from typing import Annotated

from fastapi import Path, Query, Request

from agora.auth.dependencies import Admin, SessionDep
from agora.console import dashboard as board
from agora.console import jobs, organizations, users
from agora.console.operators import ActingAdmin
from agora.console.schemas import (
    AdminJobDetailOut,
    AdminListedJobOut,
    AdminOrganizationDetailOut,
    AdminOrganizationOut,
    AdminUserDetailOut,
    AdminUserOut,
    DashboardOut,
    GrantIn,
    GrantOut,
    OrgSuspensionOut,
    RefundIn,
    SuspendIn,
    SuspensionOut,
)
from agora.kit.envelopes import EnvelopeB, meta_b
from agora.kit.families import bearer_router
from agora.kit.openapi import errors
from agora.kit.pagination import PageDep

router = bearer_router(prefix="/admin", tags=["admin"])
# Ids stay ``str`` in the path: a malformed id answers the same 404 as an unknown one.
UserId = Annotated[str, Path(alias="userId")]
OrganizationId = Annotated[str, Path(alias="organizationId")]
JobId = Annotated[str, Path(alias="jobId")]


@router.get("/users", operation_id="adminSearchUsers")
async def search_users(
    request: Request,
    session: SessionDep,
    _admin: Admin,
    params: PageDep,
    q: Annotated[str | None, Query(max_length=320, description="id, or part of email/name")] = None,
) -> EnvelopeB[list[AdminUserOut]]:
    """Users by id, email or name (newest first)."""
    rows, total = await users.search_users(session, q, limit=params.limit, offset=params.offset)
    return EnvelopeB[list[AdminUserOut]](
        data=rows,
        meta=meta_b(request, params.meta(total)),
    )


@router.get("/users/{userId}", operation_id="adminGetUser", openapi_extra=errors(404))
async def get_user(
    user_id: UserId, request: Request, session: SessionDep, _admin: Admin
) -> EnvelopeB[AdminUserDetailOut]:
    """A user with their workspaces, keys (never secrets), sessions, recent jobs and ledger."""
    detail = await users.user_detail(session, user_id)
    return EnvelopeB[AdminUserDetailOut](data=detail, meta=meta_b(request))


@router.post(
    "/users/{userId}/suspend",
    operation_id="adminSuspendUser",
    openapi_extra=errors(404, 409),
)
async def suspend_user(
    user_id: UserId,
    body: SuspendIn,
    request: Request,
    session: SessionDep,
    actor: ActingAdmin,
) -> EnvelopeB[SuspensionOut]:
    """Suspend: every session and key stops at once (401), unfinished jobs are cancelled and
    refunded, sign-in is refused. Not your own account (403)."""
    done = await users.suspend(session, actor, user_id, body.reason)
    return EnvelopeB[SuspensionOut](data=done, meta=meta_b(request))


@router.post(
    "/users/{userId}/unsuspend",
    operation_id="adminUnsuspendUser",
    openapi_extra=errors(404, 409),
)
async def unsuspend_user(
    user_id: UserId, request: Request, session: SessionDep, actor: ActingAdmin
) -> EnvelopeB[AdminUserOut]:
    """Lift a suspension (the user signs in again; revoked keys stay revoked)."""
    user = await users.unsuspend(session, actor, user_id)
    return EnvelopeB[AdminUserOut](data=user, meta=meta_b(request))


@router.post("/users/{userId}/credits", operation_id="adminGrantCredits", openapi_extra=errors(404))
async def grant_credits(
    user_id: UserId,
    body: GrantIn,
    request: Request,
    session: SessionDep,
    actor: ActingAdmin,
) -> EnvelopeB[GrantOut]:
    """Grant (or correct with) credits, with a required reason; never to your own account."""
    done = await users.grant_credits(
        session,
        actor,
        user_id,
        amount=body.amount,
        reason=body.reason,
        workspace_id=body.workspace_id,
    )
    return EnvelopeB[GrantOut](data=done, meta=meta_b(request))


@router.get("/organizations", operation_id="adminSearchOrganizations")
async def search_organizations(
    request: Request,
    session: SessionDep,
    _admin: Admin,
    params: PageDep,
    q: Annotated[str | None, Query(max_length=200, description="id, or part of name/slug")] = None,
) -> EnvelopeB[list[AdminOrganizationOut]]:
    """Organizations by id, name or slug (newest first)."""
    rows, total = await organizations.search_organizations(
        session, q, limit=params.limit, offset=params.offset
    )
    return EnvelopeB[list[AdminOrganizationOut]](
        data=rows,
        meta=meta_b(request, params.meta(total)),
    )


@router.get(
    "/organizations/{organizationId}",
    operation_id="adminGetOrganization",
    openapi_extra=errors(404),
)
async def get_organization(
    organization_id: OrganizationId, request: Request, session: SessionDep, _admin: Admin
) -> EnvelopeB[AdminOrganizationDetailOut]:
    """An organization with its members and roles, its workspace's balance and spending caps,
    its recent jobs and its latest audit rows."""
    detail = await organizations.organization_detail(session, organization_id)
    return EnvelopeB[AdminOrganizationDetailOut](data=detail, meta=meta_b(request))


@router.post(
    "/organizations/{organizationId}/suspend",
    operation_id="adminSuspendOrganization",
    openapi_extra=errors(404, 409),
)
async def suspend_organization(
    organization_id: OrganizationId,
    body: SuspendIn,
    request: Request,
    session: SessionDep,
    actor: ActingAdmin,
) -> EnvelopeB[OrgSuspensionOut]:
    """Suspend: every key, session and token acting in its workspace is refused (403) at once,
    its unfinished jobs are cancelled and refunded; members keep their personal workspaces.
    Not an organization you belong to (403)."""
    done = await organizations.suspend_organization(session, actor, organization_id, body.reason)
    return EnvelopeB[OrgSuspensionOut](data=done, meta=meta_b(request))


@router.post(
    "/organizations/{organizationId}/unsuspend",
    operation_id="adminUnsuspendOrganization",
    openapi_extra=errors(404, 409),
)
async def unsuspend_organization(
    organization_id: OrganizationId,
    request: Request,
    session: SessionDep,
    actor: ActingAdmin,
) -> EnvelopeB[AdminOrganizationOut]:
    """Lift an organization's suspension (its members' keys and sessions work there again)."""
    org = await organizations.unsuspend_organization(session, actor, organization_id)
    return EnvelopeB[AdminOrganizationOut](data=org, meta=meta_b(request))


@router.get("/jobs", operation_id="adminSearchJobs", openapi_extra=errors(400))
async def search_jobs(
    request: Request,
    session: SessionDep,
    _admin: Admin,
    params: PageDep,
    q: Annotated[str | None, Query(max_length=64, description="A job id")] = None,
    agent: Annotated[
        str | None,
        Query(max_length=100, description="An agent id, registry identifier or part of its name"),
    ] = None,
    status: Annotated[str | None, Query(max_length=40, description="A job status")] = None,
    workspace: Annotated[str | None, Query(max_length=64, description="A workspace id")] = None,
) -> EnvelopeB[list[AdminListedJobOut]]:
    """Jobs of every workspace by id, agent, status and workspace (newest first)."""
    filters = jobs.JobFilters(q=q, agent=agent, status=status, workspace=workspace)
    rows, total = await jobs.search_jobs(session, filters, limit=params.limit, offset=params.offset)
    return EnvelopeB[list[AdminListedJobOut]](
        data=[AdminListedJobOut.of(row.job, row.agent_name) for row in rows],
        meta=meta_b(request, params.meta(total)),
    )


@router.get("/jobs/{jobId}", operation_id="adminGetJob", openapi_extra=errors(404))
async def get_job(
    job_id: JobId, request: Request, session: SessionDep, _admin: Admin
) -> EnvelopeB[AdminJobDetailOut]:
    """A job of any workspace: its fields, events in order, payment state, credits ledger
    entries, webhook/mail deliveries and files."""
    detail = await jobs.job_detail(session, job_id)
    return EnvelopeB[AdminJobDetailOut](data=AdminJobDetailOut.of(detail), meta=meta_b(request))


@router.post("/jobs/{jobId}/refund", operation_id="adminRefundJob", openapi_extra=errors(404, 409))
async def refund_job(
    job_id: JobId, body: RefundIn, request: Request, session: SessionDep, actor: ActingAdmin
) -> EnvelopeB[AdminJobDetailOut]:
    """Refund a completed job paid with credits, with a required reason: the buyer's credits
    back, the seller's earning reversed (their earnings may go below zero). Once per job (409)."""
    detail = await jobs.refund_job(session, actor, job_id, body.reason)
    return EnvelopeB[AdminJobDetailOut](data=AdminJobDetailOut.of(detail), meta=meta_b(request))


@router.get("/dashboard", operation_id="adminDashboard")
async def dashboard(
    request: Request, session: SessionDep, _admin: Admin
) -> EnvelopeB[DashboardOut]:
    """Jobs per status in the last 24 h, failure rate per agent, dispatch lag, open refunds and
    disputes, pending reviews, registry quarantine, failed webhook/mail deliveries."""
    data = await board.dashboard(session)
    return EnvelopeB[DashboardOut](data=data, meta=meta_b(request))
