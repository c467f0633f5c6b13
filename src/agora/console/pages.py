"""The operator's console in the browser (/admin/...): the dashboard, users (search, detail,
suspend, grant credits), organizations (search, detail, suspend), jobs (search, detail), the
review queue, the audit log. For an operator's session only (a
user holding a live admin key; anyone else gets the 404 page); every action needs a password
or magic-link proof within AGORA_ADMIN_REAUTH_MINUTES (the "Confirm your password" form).
The pages call the same services as the admin API (console/, developer/, audit/)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from agora.accounts import service as accounts
from agora.accounts.dependencies import ContextDep, OperatorDep
from agora.audit import service as audit
from agora.auth.dependencies import (
    SessionDep,
    SettingsDep,
    UnitDep,
)
from agora.auth.principal import Principal
from agora.console import dashboard, jobs, organizations, users
from agora.console import service as console
from agora.developer import service as developer
from agora.kit.errors import AgoraError, BadRequest
from agora.kit.pagination import PageParams
from agora.kit.units import Mode, UnitOfWorkRoute, mode
from agora.mip003.client import app_client
from agora.models.statuses import JobStatus
from agora.web.shell import field_errors as _field_errors
from agora.web.shell import posted as _form
from agora.web.shell import render as _render
from agora.web.shell import safe_next
from agora.web.shell import text as _text

router = APIRouter(include_in_schema=False, route_class=UnitOfWorkRoute)


Q = Annotated[str | None, Query(max_length=320)]


async def _page(
    request: Request, session: Any, principal: Principal, name: str, status: int = 200, **ctx: Any
) -> HTMLResponse:
    return await _render(request, session, principal, name, status, operator=True, **ctx)


@router.get("/admin")
async def dashboard_page(request: Request, session: SessionDep, principal: OperatorDep) -> Response:
    board = await dashboard.dashboard(session)
    return await _page(request, session, principal, "admin_dashboard.html", board=board)


# ---- users --------------------------------------------------------------------------------


@router.get("/admin/users")
async def users_page(
    request: Request, session: SessionDep, principal: OperatorDep, q: Q = None
) -> Response:
    rows, total = await users.search_users(session, q, limit=50)
    return await _page(
        request, session, principal, "admin_users.html", users=rows, total=total, q=q or ""
    )


async def _user_page(
    request: Request,
    session: Any,
    principal: Principal,
    user_id: str,
    *,
    errors: dict[str, str] | None = None,
    notice: str = "",
    status: int = 200,
) -> HTMLResponse:
    detail = await users.user_detail(session, user_id)
    events, _ = await audit.search_all(
        session, audit.Filters(target_id=str(detail.user.id)), limit=20
    )
    return await _page(
        request, session, principal, "admin_user.html", status, detail=detail, events=events,
        errors=errors or {}, notice=notice, myself=detail.user.id == principal.user_id,
    )  # fmt: skip


@router.get("/admin/users/{user_id}")
async def user_page(
    request: Request, user_id: str, session: SessionDep, principal: OperatorDep, done: Q = None
) -> Response:
    notice = {"suspended": "The account is suspended.", "granted": "Credits granted."}.get(
        done or "", ""
    )
    return await _user_page(request, session, principal, user_id, notice=notice)


async def _act(
    request: Request,
    session: Any,
    settings: Any,
    principal: Principal,
    subject_id: str,
    work: Any,
    *,
    kind: str = "users",
) -> Response:
    """Run an operator's action on a user (or an organization: ``kind``); a refusal shows the
    subject's page with the reason."""
    try:
        actor = await accounts.require_operator(session, settings, principal, acting=True)
        done = await work(actor)
    except AgoraError as exc:
        errors = _field_errors(exc)
        errors["form"] = exc.message
        show = _organization_page if kind == "organizations" else _user_page
        return await show(
            request, session, principal, subject_id, errors=errors, status=exc.status_code
        )
    return RedirectResponse(f"/admin/{kind}/{subject_id}?done={done}", status_code=303)


@router.post("/admin/users/{user_id}/suspend")
async def suspend(
    request: Request,
    user_id: str,
    session: SessionDep,
    settings: SettingsDep,
    principal: OperatorDep,
) -> Response:
    form = await _form(request)

    async def work(actor: audit.Actor) -> str:
        await users.suspend(session, actor, user_id, _text(form, "reason", 500))
        return "suspended"

    return await _act(request, session, settings, principal, user_id, work)


@router.post("/admin/users/{user_id}/unsuspend")
async def unsuspend(
    request: Request,
    user_id: str,
    session: SessionDep,
    settings: SettingsDep,
    principal: OperatorDep,
) -> Response:
    await _form(request)

    async def work(actor: audit.Actor) -> str:
        await users.unsuspend(session, actor, user_id)
        return "unsuspended"

    return await _act(request, session, settings, principal, user_id, work)


@router.post("/admin/users/{user_id}/credits")
async def grant(
    request: Request,
    user_id: str,
    session: SessionDep,
    settings: SettingsDep,
    principal: OperatorDep,
) -> Response:
    form = await _form(request)

    async def work(actor: audit.Actor) -> str:
        await users.grant_credits(
            session,
            actor,
            user_id,
            amount=_text(form, "amount", 40).strip() or "0",
            reason=_text(form, "reason", 400),
            workspace_id=_text(form, "workspaceId", 60).strip() or None,
        )
        return "granted"

    return await _act(request, session, settings, principal, user_id, work)


# ---- organizations ------------------------------------------------------------------------


@router.get("/admin/organizations")
async def organizations_page(
    request: Request, session: SessionDep, principal: OperatorDep, q: Q = None
) -> Response:
    rows, total = await organizations.search_organizations(session, q, limit=50)
    return await _page(
        request, session, principal, "admin_organizations.html", organizations=rows,
        total=total, q=q or "",
    )  # fmt: skip


async def _organization_page(
    request: Request,
    session: Any,
    principal: Principal,
    org_id: str,
    *,
    errors: dict[str, str] | None = None,
    notice: str = "",
    status: int = 200,
) -> HTMLResponse:
    detail = await organizations.organization_detail(session, org_id)
    return await _page(
        request, session, principal, "admin_organization.html", status, detail=detail,
        events=detail.events, errors=errors or {}, notice=notice,
    )  # fmt: skip


@router.get("/admin/organizations/{org_id}")
async def organization_page(
    request: Request, org_id: str, session: SessionDep, principal: OperatorDep, done: Q = None
) -> Response:
    notice = {
        "suspended": "The organization is suspended.",
        "unsuspended": "The suspension is lifted.",
    }.get(done or "", "")
    return await _organization_page(request, session, principal, org_id, notice=notice)


@router.post("/admin/organizations/{org_id}/suspend")
async def suspend_organization(
    request: Request,
    org_id: str,
    session: SessionDep,
    settings: SettingsDep,
    principal: OperatorDep,
) -> Response:
    form = await _form(request)

    async def work(actor: audit.Actor) -> str:
        await organizations.suspend_organization(session, actor, org_id, _text(form, "reason", 500))
        return "suspended"

    return await _act(request, session, settings, principal, org_id, work, kind="organizations")


@router.post("/admin/organizations/{org_id}/unsuspend")
async def unsuspend_organization(
    request: Request,
    org_id: str,
    session: SessionDep,
    settings: SettingsDep,
    principal: OperatorDep,
) -> Response:
    await _form(request)

    async def work(actor: audit.Actor) -> str:
        await organizations.unsuspend_organization(session, actor, org_id)
        return "unsuspended"

    return await _act(request, session, settings, principal, org_id, work, kind="organizations")


# ---- jobs ---------------------------------------------------------------------------------

ShortQ = Annotated[str | None, Query(max_length=100)]


@router.get("/admin/jobs")
async def jobs_page(
    request: Request,
    session: SessionDep,
    principal: OperatorDep,
    q: ShortQ = None,
    agent: ShortQ = None,
    status: ShortQ = None,
    workspace: ShortQ = None,
) -> Response:
    filters = jobs.JobFilters(q=q, agent=agent, status=status, workspace=workspace)
    errors: dict[str, str] = {}
    try:
        rows, total = await jobs.search_jobs(session, filters, limit=50)
    except AgoraError as exc:
        errors = _field_errors(exc)
        errors["form"] = exc.message
        rows, total = [], 0
    return await _page(
        request, session, principal, "admin_jobs.html", 400 if errors else 200, jobs=rows,
        total=total, filters=filters, statuses=list(JobStatus), errors=errors,
    )  # fmt: skip


@router.get("/admin/jobs/{job_id}")
async def job_page(
    request: Request, job_id: str, session: SessionDep, principal: OperatorDep
) -> Response:
    detail = await jobs.job_detail(session, job_id)
    return await _page(request, session, principal, "admin_job.html", detail=detail)


# ---- the review queue ---------------------------------------------------------------------


async def _reviews_page(
    request: Request,
    session: Any,
    principal: Principal,
    *,
    error: str = "",
    status: int = 200,
    queue: tuple[list[console.QueuedAgent], int] | None = None,
    checks: dict[Any, console.LiveCheck] | None = None,
    errors: dict[str, str] | None = None,
) -> HTMLResponse:
    listed, total = queue if queue is not None else await _queue(session)
    return await _page(
        request, session, principal, "admin_reviews.html", status, agents=listed, total=total,
        error=error, checks=checks, errors=errors or {},
        overridable=("name", "description", "tags", "image", "hidden"),
    )  # fmt: skip


async def _queue(session: Any) -> tuple[list[console.QueuedAgent], int]:
    agents, total = await developer.admin_list(
        session, status=None, review="pending", params=PageParams(1, 50)
    )
    return await console.review_queue(session, agents), total


@router.get("/admin/reviews")
@mode(Mode.CALLS_OUT)
async def reviews_page(
    request: Request, unit: UnitDep, principal: OperatorDep, live: Q = None
) -> Response:
    """The queue, each pending agent checked live (/availability and /input_schema, with no
    transaction open), then rendered in a short transaction that only reads; ``?live=0`` skips
    the checks."""
    queue = await _queue(await unit.session())
    if live == "0" or not queue[0]:
        return await _reviews_page(request, await unit.session(), principal, queue=queue)
    checks = await unit.call_out(console.live_checks(app_client(request), queue[0]))
    return await _reviews_page(request, await unit.write(), principal, queue=queue, checks=checks)


@router.post("/admin/reviews/{agent_id}/approve")
@mode(Mode.CALLS_OUT)
async def approve(
    request: Request, agent_id: str, unit: UnitDep, settings: SettingsDep, principal: OperatorDep
) -> Response:
    """Check the agent live (no transaction open), then verify and list it."""
    form = await _form(request)
    read = await unit.session()
    try:
        actor = await accounts.require_operator(read, settings, principal, acting=True)
        base_url = (await developer.get_any(read, agent_id)).base_url
        checked = await unit.call_out(
            developer.probe_for_review(app_client(request), agent_id, base_url)
        )
        session = await unit.write()
        await developer.approve(
            session, settings, agent_id, checked, _text(form, "note", 2000), actor=actor
        )
    except AgoraError as exc:
        return await _reviews_page(
            request, await unit.session(), principal, error=exc.message, status=exc.status_code
        )
    return RedirectResponse("/admin/reviews?done=approved", status_code=303)


@router.post("/admin/reviews/{agent_id}/reject")
async def reject(
    request: Request,
    agent_id: str,
    session: SessionDep,
    settings: SettingsDep,
    principal: OperatorDep,
) -> Response:
    form = await _form(request)
    try:
        actor = await accounts.require_operator(session, settings, principal, acting=True)
        await developer.reject(session, agent_id, _text(form, "reason", 2000), actor=actor)
    except AgoraError as exc:
        return await _reviews_page(
            request, session, principal, error=exc.message, status=exc.status_code
        )
    return RedirectResponse("/admin/reviews?done=rejected", status_code=303)


@router.post("/admin/reviews/{agent_id}/override")
async def override(
    request: Request,
    agent_id: str,
    session: SessionDep,
    settings: SettingsDep,
    principal: OperatorDep,
) -> Response:
    """Override one published field of an agent with a required reason (audited)."""
    form = await _form(request)
    field, value = _text(form, "field", 40), _text(form, "value", 10_000)
    reason = _text(form, "reason", 500).strip()
    try:
        actor = await accounts.require_operator(session, settings, principal, acting=True)
        if not reason:
            raise BadRequest.field("reason", "say why the listing is overridden")
        given = _override_value(field, value)
        await developer.override(session, agent_id, given, actor=actor, reason=reason)
    except AgoraError as exc:
        return await _reviews_page(
            request, session, principal, error=exc.message, status=exc.status_code,
            errors=_field_errors(exc),
        )  # fmt: skip
    return RedirectResponse("/admin/reviews?done=overridden", status_code=303)


def _override_value(field: str, value: str) -> dict[str, Any]:
    """The form's one field as the override service takes it (empty: clear the override)."""
    if field not in ("name", "description", "tags", "image", "hidden"):
        raise BadRequest.field("field", "choose name, description, tags, image or hidden")
    text = value.strip()
    if not text:
        return {field: None}
    if field == "tags":
        return {field: [t.strip() for t in text.split(",") if t.strip()]}
    if field == "hidden":
        return {field: text.lower() in ("1", "true", "yes", "on", "hidden")}
    return {field: text}


# ---- the audit log ------------------------------------------------------------------------

ActionQ = Annotated[str | None, Query(max_length=60)]


@router.get("/admin/audit")
async def audit_page(
    request: Request,
    session: SessionDep,
    principal: OperatorDep,
    action: ActionQ = None,
    target: Q = None,
) -> Response:
    filters = audit.Filters(action=action or None, target_id=target or None)
    rows, total = await audit.search_all(session, filters, limit=200)
    return await _page(
        request, session, principal, "admin_audit.html", events=rows, total=total,
        action=action or "", target=target or "", actions=audit.ACTIONS,
    )  # fmt: skip


@router.get("/admin/audit/export")
async def audit_export(
    session: SessionDep, principal: OperatorDep, action: ActionQ = None, target: Q = None
) -> Response:
    filters = audit.Filters(action=action or None, target_id=target or None)
    rows, _ = await audit.search_all(session, filters, limit=audit.EXPORT_LIMIT)
    return Response(
        audit.to_csv(rows),
        media_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": 'attachment; filename="audit.csv"'},
    )


@router.post("/admin/reauthenticate")
@mode(Mode.CALLS_OUT)
async def reauthenticate(
    request: Request, unit: UnitDep, principal: OperatorDep, ctx: ContextDep
) -> Response:
    """Confirm the password: the proof admin actions need (Argon2 with no transaction open)."""
    form = await _form(request)
    await accounts.check_password(await unit.session(), ctx, principal, _text(form, "password"))
    await accounts.reauthenticate(await unit.write(), principal)
    return RedirectResponse(safe_next(_text(form, "next", 500), "/admin"), status_code=303)
