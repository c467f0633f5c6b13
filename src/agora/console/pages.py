"""The operator's console in the browser (/admin/...): the dashboard, users (search, detail,
suspend, grant credits), organizations (search, detail, suspend), jobs (search, detail), the
review queue, the audit log. For an operator's session only (a user holding a live admin key;
anyone else gets the 404 page); every action needs a password or magic-link proof within
AGORA_ADMIN_REAUTH_MINUTES (the "Confirm your password" form). The pages call the same use cases
as the admin API (console/, developer/, audit/)."""

from __future__ import annotations

from functools import partial
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from agora.a2a.client import app_client as a2a_client
from agora.accounts import service as accounts
from agora.accounts.dependencies import ContextDep, OperatorDep
from agora.audit import service as audit
from agora.auth.dependencies import SessionDep, SettingsDep, UnitDep
from agora.auth.principal import Principal
from agora.console import dashboard, jobs, organizations, users
from agora.console import service as console
from agora.console.operators import OperatorPage, OperatorPageDep, Work, refusal_errors
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
async def dashboard_page(page: OperatorPageDep) -> Response:
    return await page.show("admin_dashboard.html", board=await dashboard.dashboard(page.session))


# ---- users --------------------------------------------------------------------------------

USER_NOTICES = {"suspended": "The account is suspended.", "granted": "Credits granted."}


@router.get("/admin/users")
async def users_page(page: OperatorPageDep, q: Q = None) -> Response:
    rows, total = await users.search_users(page.session, q, limit=50)
    return await page.show("admin_users.html", users=rows, total=total, q=q or "")


async def _user_page(
    page: OperatorPage, user_id: str, refused: AgoraError | None = None, notice: str = ""
) -> HTMLResponse:
    """A user's page; after a refused action, with its reasons (and its status)."""
    detail = await users.user_detail(page.session, user_id)
    events, _ = await audit.search_all(
        page.session, audit.Filters(target_id=str(detail.user.id)), limit=20
    )
    return await page.show(
        "admin_user.html", refused.status_code if refused else 200, detail=detail,
        events=events, errors=refusal_errors(refused), notice=notice,
        myself=detail.user.id == page.principal.user_id,
    )  # fmt: skip


@router.get("/admin/users/{user_id}")
async def user_page(user_id: str, page: OperatorPageDep, done: Q = None) -> Response:
    return await _user_page(page, user_id, notice=USER_NOTICES.get(done or "", ""))


async def _on_user(page: OperatorPage, user_id: str, done: str, work: Work) -> Response:
    """An action on a user: back to their page (``done`` says what happened) or, refused,
    their page with the reasons."""
    location = f"/admin/users/{user_id}?done={done}"
    return await page.act(work, location, partial(_user_page, page, user_id))


@router.post("/admin/users/{user_id}/suspend")
async def suspend(user_id: str, page: OperatorPageDep) -> Response:
    reason = _text(await page.form(), "reason", 500)
    work = partial(users.suspend, raw_user_id=user_id, reason=reason)
    return await _on_user(page, user_id, "suspended", work)


@router.post("/admin/users/{user_id}/unsuspend")
async def unsuspend(user_id: str, page: OperatorPageDep) -> Response:
    await page.form()
    work = partial(users.unsuspend, raw_user_id=user_id)
    return await _on_user(page, user_id, "unsuspended", work)


@router.post("/admin/users/{user_id}/credits")
async def grant(user_id: str, page: OperatorPageDep) -> Response:
    form = await page.form()
    work = partial(
        users.grant_credits,
        raw_user_id=user_id,
        amount=_text(form, "amount", 40).strip() or "0",
        reason=_text(form, "reason", 400),
        workspace_id=_text(form, "workspaceId", 60).strip() or None,
    )
    return await _on_user(page, user_id, "granted", work)


# ---- organizations ------------------------------------------------------------------------

ORGANIZATION_NOTICES = {
    "suspended": "The organization is suspended.",
    "unsuspended": "The suspension is lifted.",
}


@router.get("/admin/organizations")
async def organizations_page(page: OperatorPageDep, q: Q = None) -> Response:
    rows, total = await organizations.search_organizations(page.session, q, limit=50)
    return await page.show("admin_organizations.html", organizations=rows, total=total, q=q or "")


async def _organization_page(
    page: OperatorPage, org_id: str, refused: AgoraError | None = None, notice: str = ""
) -> HTMLResponse:
    """An organization's page; after a refused action, with its reasons (and its status)."""
    detail = await organizations.organization_detail(page.session, org_id)
    return await page.show(
        "admin_organization.html", refused.status_code if refused else 200, detail=detail,
        events=detail.events, errors=refusal_errors(refused), notice=notice,
    )  # fmt: skip


@router.get("/admin/organizations/{org_id}")
async def organization_page(org_id: str, page: OperatorPageDep, done: Q = None) -> Response:
    notice = ORGANIZATION_NOTICES.get(done or "", "")
    return await _organization_page(page, org_id, notice=notice)


async def _on_organization(page: OperatorPage, org_id: str, done: str, work: Work) -> Response:
    location = f"/admin/organizations/{org_id}?done={done}"
    return await page.act(work, location, partial(_organization_page, page, org_id))


@router.post("/admin/organizations/{org_id}/suspend")
async def suspend_organization(org_id: str, page: OperatorPageDep) -> Response:
    reason = _text(await page.form(), "reason", 500)
    work = partial(organizations.suspend_organization, raw_org_id=org_id, reason=reason)
    return await _on_organization(page, org_id, "suspended", work)


@router.post("/admin/organizations/{org_id}/unsuspend")
async def unsuspend_organization(org_id: str, page: OperatorPageDep) -> Response:
    await page.form()
    work = partial(organizations.unsuspend_organization, raw_org_id=org_id)
    return await _on_organization(page, org_id, "unsuspended", work)


# ---- jobs ---------------------------------------------------------------------------------

ShortQ = Annotated[str | None, Query(max_length=100)]


@router.get("/admin/jobs")
async def jobs_page(
    page: OperatorPageDep,
    q: ShortQ = None,
    agent: ShortQ = None,
    status: ShortQ = None,
    workspace: ShortQ = None,
) -> Response:
    """Every workspace's jobs; a filter that is not what it names shows its reason (400)."""
    filters = jobs.JobFilters(q=q, agent=agent, status=status, workspace=workspace)
    refused: AgoraError | None = None
    try:
        rows, total = await jobs.search_jobs(page.session, filters, limit=50)
    except AgoraError as exc:
        refused, rows, total = exc, [], 0
    return await page.show(
        "admin_jobs.html", 400 if refused else 200, jobs=rows, total=total, filters=filters,
        statuses=list(JobStatus), errors=refusal_errors(refused),
    )  # fmt: skip


@router.get("/admin/jobs/{job_id}")
async def job_page(job_id: str, page: OperatorPageDep) -> Response:
    return await page.show("admin_job.html", detail=await jobs.job_detail(page.session, job_id))


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
        await developer.probe_and_approve(
            unit,
            settings,
            app_client(request),
            agent_id,
            _text(form, "note", 2000),
            actor=actor,
            a2a=a2a_client(request),
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
async def audit_page(page: OperatorPageDep, action: ActionQ = None, target: Q = None) -> Response:
    filters = audit.Filters(action=action or None, target_id=target or None)
    rows, total = await audit.search_all(page.session, filters, limit=200)
    return await page.show(
        "admin_audit.html", events=rows, total=total, action=action or "", target=target or "",
        actions=audit.ACTIONS,
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
