"""/v1/admin/users, /v1/admin/organizations, /v1/admin/jobs, /v1/admin/dashboard (bearer
family: Envelope B; admin keys). The console's web pages (web/console.py) call the same services
with an operator's browser session."""

from __future__ import annotations

from typing import Annotated

from fastapi import Query, Request

from agora.accounts import service as accounts
from agora.auth.dependencies import Admin, JobId, OrganizationId, SessionDep, SettingsDep, UserId
from agora.console import dashboard as board
from agora.console import jobs, organizations, users
from agora.console.schemas import (
    AdminJobDetailOut,
    AdminJobFullOut,
    AdminListedJobOut,
    AdminOrganizationDetailOut,
    AdminOrganizationOut,
    AdminUserDetailOut,
    AdminUserOut,
    DashboardOut,
    GrantIn,
    GrantOut,
    OrgSuspensionOut,
    SuspendIn,
    SuspensionOut,
)
from agora.kit.envelopes import EnvelopeB, meta_b
from agora.kit.families import bearer_router
from agora.kit.money import to_display
from agora.kit.pagination import PageDep

router = bearer_router(prefix="/admin", tags=["admin"])


@router.get("/users", operation_id="adminSearchUsers", response_model=EnvelopeB[list[AdminUserOut]])
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
        data=[AdminUserOut.model_validate(row) for row in rows],
        meta=meta_b(request, params.meta(total)),
    )


@router.get(
    "/users/{userId}",
    operation_id="adminGetUser",
    response_model=EnvelopeB[AdminUserDetailOut],
    openapi_extra={"x-agora-errors": [404]},
)
async def get_user(
    user_id: UserId, request: Request, session: SessionDep, _admin: Admin
) -> EnvelopeB[AdminUserDetailOut]:
    """A user with their workspaces, keys (never secrets), sessions, recent jobs and ledger."""
    detail = await users.user_detail(session, user_id)
    return EnvelopeB[AdminUserDetailOut](
        data=AdminUserDetailOut.model_validate(detail), meta=meta_b(request)
    )


@router.post(
    "/users/{userId}/suspend",
    operation_id="adminSuspendUser",
    response_model=EnvelopeB[SuspensionOut],
    openapi_extra={"x-agora-errors": [404, 409]},
)
async def suspend_user(
    user_id: UserId,
    body: SuspendIn,
    request: Request,
    session: SessionDep,
    settings: SettingsDep,
    admin: Admin,
) -> EnvelopeB[SuspensionOut]:
    """Suspend: every session and key stops at once (401), unfinished jobs are cancelled and
    refunded, sign-in is refused. Not your own account (403)."""
    actor = await accounts.require_operator(session, settings, admin, acting=True)
    done = await users.suspend(session, actor, user_id, body.reason)
    return EnvelopeB[SuspensionOut](data=SuspensionOut.model_validate(done), meta=meta_b(request))


@router.post(
    "/users/{userId}/unsuspend",
    operation_id="adminUnsuspendUser",
    response_model=EnvelopeB[AdminUserOut],
    openapi_extra={"x-agora-errors": [404, 409]},
)
async def unsuspend_user(
    user_id: UserId, request: Request, session: SessionDep, settings: SettingsDep, admin: Admin
) -> EnvelopeB[AdminUserOut]:
    """Lift a suspension (the user signs in again; revoked keys stay revoked)."""
    actor = await accounts.require_operator(session, settings, admin, acting=True)
    user = await users.unsuspend(session, actor, user_id)
    return EnvelopeB[AdminUserOut](data=AdminUserOut.model_validate(user), meta=meta_b(request))


@router.post(
    "/users/{userId}/credits",
    operation_id="adminGrantCredits",
    response_model=EnvelopeB[GrantOut],
    openapi_extra={"x-agora-errors": [404]},
)
async def grant_credits(
    user_id: UserId,
    body: GrantIn,
    request: Request,
    session: SessionDep,
    settings: SettingsDep,
    admin: Admin,
) -> EnvelopeB[GrantOut]:
    """Grant (or correct with) credits, with a required reason; never to your own account."""
    actor = await accounts.require_operator(session, settings, admin, acting=True)
    done = await users.grant_credits(
        session,
        actor,
        user_id,
        amount=body.amount,
        reason=body.reason,
        workspace_id=body.workspace_id,
    )
    return EnvelopeB[GrantOut](
        data=GrantOut(
            user_id=done.user.id,
            workspace_id=done.workspace_id,
            amount=to_display(done.amount),
            balance=to_display(done.balance),
        ),
        meta=meta_b(request),
    )


@router.get(
    "/organizations",
    operation_id="adminSearchOrganizations",
    response_model=EnvelopeB[list[AdminOrganizationOut]],
)
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
        data=[AdminOrganizationOut.model_validate(row) for row in rows],
        meta=meta_b(request, params.meta(total)),
    )


@router.get(
    "/organizations/{organizationId}",
    operation_id="adminGetOrganization",
    response_model=EnvelopeB[AdminOrganizationDetailOut],
    openapi_extra={"x-agora-errors": [404]},
)
async def get_organization(
    organization_id: OrganizationId, request: Request, session: SessionDep, _admin: Admin
) -> EnvelopeB[AdminOrganizationDetailOut]:
    """An organization with its members and roles, its workspace's balance and spending caps,
    its recent jobs and its latest audit rows."""
    detail = await organizations.organization_detail(session, organization_id)
    return EnvelopeB[AdminOrganizationDetailOut](
        data=AdminOrganizationDetailOut.model_validate(detail), meta=meta_b(request)
    )


@router.post(
    "/organizations/{organizationId}/suspend",
    operation_id="adminSuspendOrganization",
    response_model=EnvelopeB[OrgSuspensionOut],
    openapi_extra={"x-agora-errors": [404, 409]},
)
async def suspend_organization(
    organization_id: OrganizationId,
    body: SuspendIn,
    request: Request,
    session: SessionDep,
    settings: SettingsDep,
    admin: Admin,
) -> EnvelopeB[OrgSuspensionOut]:
    """Suspend: every key, session and token acting in its workspace is refused (403) at once,
    its unfinished jobs are cancelled and refunded; members keep their personal workspaces.
    Not an organization you belong to (403)."""
    actor = await accounts.require_operator(session, settings, admin, acting=True)
    done = await organizations.suspend_organization(session, actor, organization_id, body.reason)
    return EnvelopeB[OrgSuspensionOut](
        data=OrgSuspensionOut.model_validate(done), meta=meta_b(request)
    )


@router.post(
    "/organizations/{organizationId}/unsuspend",
    operation_id="adminUnsuspendOrganization",
    response_model=EnvelopeB[AdminOrganizationOut],
    openapi_extra={"x-agora-errors": [404, 409]},
)
async def unsuspend_organization(
    organization_id: OrganizationId,
    request: Request,
    session: SessionDep,
    settings: SettingsDep,
    admin: Admin,
) -> EnvelopeB[AdminOrganizationOut]:
    """Lift an organization's suspension (its members' keys and sessions work there again)."""
    actor = await accounts.require_operator(session, settings, admin, acting=True)
    org = await organizations.unsuspend_organization(session, actor, organization_id)
    return EnvelopeB[AdminOrganizationOut](
        data=AdminOrganizationOut.model_validate(org), meta=meta_b(request)
    )


@router.get(
    "/jobs",
    operation_id="adminSearchJobs",
    response_model=EnvelopeB[list[AdminListedJobOut]],
    openapi_extra={"x-agora-errors": [400]},
)
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


@router.get(
    "/jobs/{jobId}",
    operation_id="adminGetJob",
    response_model=EnvelopeB[AdminJobDetailOut],
    openapi_extra={"x-agora-errors": [404]},
)
async def get_job(
    job_id: JobId, request: Request, session: SessionDep, _admin: Admin
) -> EnvelopeB[AdminJobDetailOut]:
    """A job of any workspace: its fields, events in order, payment state, credits ledger
    entries, webhook/mail deliveries and files."""
    detail = await jobs.job_detail(session, job_id)
    data = AdminJobDetailOut.model_validate(
        {
            "job": AdminJobFullOut.of(detail.job, detail.agent.name),
            "events": detail.events,
            "payment": detail.payment,
            "ledger": detail.ledger,
            "deliveries": detail.deliveries,
            "files": detail.files,
        }
    )
    return EnvelopeB[AdminJobDetailOut](data=data, meta=meta_b(request))


@router.get("/dashboard", operation_id="adminDashboard", response_model=EnvelopeB[DashboardOut])
async def dashboard(
    request: Request, session: SessionDep, _admin: Admin
) -> EnvelopeB[DashboardOut]:
    """Jobs per status in the last 24 h, failure rate per agent, dispatch lag, open refunds and
    disputes, pending reviews, registry quarantine, failed webhook/mail deliveries."""
    data = await board.dashboard(session)
    return EnvelopeB[DashboardOut](data=DashboardOut.model_validate(data), meta=meta_b(request))
