"""The web app's pages: accounts, the gallery, agents, jobs, credits, keys, organizations (the
workspace's projects, tasks and history: work.py). Thin: each calls the same service functions as
the REST endpoints, inside the request's transaction (``SessionDep``), signed in with the
browser-session cookie (``SignedInDep`` / ``ViewerDep``, pages.py). Every form carries the
session's CSRF token in a hidden field (``pages.posted``); errors a page does not show on its
fields reach the app's error page; pages answer HTML with the security headers (render.py)."""

from __future__ import annotations

from typing import Annotated, Any
from urllib.parse import quote

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from agora.accounts import service as accounts
from agora.accounts.cookies import clear_session_cookies, set_session_cookies
from agora.accounts.endpoints import ACCEPTED, ContextDep
from agora.agents import service as agents
from agora.auth.dependencies import (
    SessionDep,
    SessionPrincipalDep,
    SettingsDep,
    UnitDep,
    check_same_origin,
    public,
    secret_key,
    session_cookie,
)
from agora.auth.principal import Principal
from agora.billing import service as billing_service
from agora.credits import service as credits
from agora.jobs import service as jobs
from agora.jobs.lifecycle import FINAL_STATUSES, INPUT_REQUIRED
from agora.jobs.schemas import JobCreate, JobInputs, JobShareRequest, SharedJobOut
from agora.kit.errors import AgoraError, BadRequest, Conflict, NotFound
from agora.kit.money import to_display
from agora.kit.units import Mode, UnitOfWorkRoute, mode
from agora.mip003.validation import validate_input
from agora.payments import service as payments
from agora.ratings import service as ratings
from agora.web import billing, console, console_ops, developer, flash, forms, schedules, trust, work
from agora.web import notifications as notification_pages
from agora.web import organizations as organizations_pages
from agora.web import service as web
from agora.web.nextsteps import next_step
from agora.web.pages import OperatorDep, SignedInDep, Text, ViewerDep, safe_next
from agora.web.pages import field_errors as _field_errors
from agora.web.pages import posted as _form
from agora.web.pages import render as _render
from agora.web.pages import text as _text
from agora.web.render import sentence

router = APIRouter(include_in_schema=False, route_class=UnitOfWorkRoute)
router.include_router(work.router)  # history, projects, tasks
router.include_router(notification_pages.router)  # inbox, settings, unsubscribe
router.include_router(billing.router)  # buy credits, receipts
router.include_router(schedules.router)  # schedules and their runs
router.include_router(trust.router)  # favourites, ratings, compare
router.include_router(organizations_pages.router)  # organizations, invitations
router.include_router(developer.router)  # your agents: submit, edit, withdraw, statistics
router.include_router(console.router)  # the operator's console (/admin)
router.include_router(console_ops.router)  # its registry quarantine and stuck payments


# ---- accounts ----------------------------------------------------------------------------


@router.get("/")
@public
async def home() -> RedirectResponse:
    return RedirectResponse("/agents", status_code=303)


@router.get("/favicon.ico")
@public
async def favicon() -> RedirectResponse:
    """Browsers ask for /favicon.ico whatever the page says: the app's icon (pages name it with
    ``<link rel="icon">``), so no page shows a 404 in the console."""
    return RedirectResponse(
        "/static/favicon.svg", status_code=301, headers={"Cache-Control": "public, max-age=86400"}
    )


@router.get("/sign-up")
@public
async def sign_up_page(request: Request, session: SessionDep, next: Text = None) -> HTMLResponse:
    """``next``: where to return after the confirmation (kept through the mailed link: an
    invitation opened before the account existed is not lost)."""
    return await _render(
        request, session, None, "sign_up.html", values={}, errors={}, next=safe_next(next, "")
    )


@router.post("/sign-up")
@public
async def sign_up(request: Request, session: SessionDep, ctx: ContextDep) -> HTMLResponse:
    form = await _form(request)
    values = {k: _text(form, k, 320) for k in ("email", "name")}
    then = safe_next(_text(form, "next", 500), "")
    try:
        user = await accounts.sign_up(
            session, ctx, email=values["email"], password=_text(form, "password", 200),
            name=values["name"], then=then or None,
        )  # fmt: skip
    except AgoraError as exc:
        errors = _field_errors(exc) or {"form": exc.message}
        if not exc.details and exc.message.startswith("email:"):
            errors = {"email": exc.message.removeprefix("email:").strip()}
        return await _render(
            request, session, None, "sign_up.html", exc.status_code, values=values, errors=errors,
            next=then, summary=None,  # the page writes its own
        )  # fmt: skip
    return await _render(
        request, session, None, "signed_up.html", email=user.email,
        invitation=then.startswith("/invitations/"),
    )  # fmt: skip


# The pages that ask for an address and mail a link (the same service calls as
# POST /v1/auth/magic-link, /password-reset and /verify-email/resend): one answer whether or not
# the address has an account; the POST redirects (PRG) to the page with ``sent=1``.
_MAIL_PAGES: dict[str, dict[str, str]] = {
    "/magic-link": {
        "title": "Sign in with a link",
        "intro": "We mail you a one-time link that signs you in; no password needed.",
        "button": "Mail me a sign-in link",
    },
    "/reset-password": {
        "title": "Reset your password",
        "intro": "We mail you a link to choose a new password.",
        "button": "Mail me a reset link",
    },
    "/verify-email": {
        "title": "Confirm your email address",
        "intro": "We mail you a new link to confirm your address (if it is not confirmed yet).",
        "button": "Mail me a new confirmation link",
    },
}


async def _mail_page(
    request: Request,
    session: Any,
    path: str,
    *,
    sent: bool = False,
    email: str = "",
    errors: dict[str, str] | None = None,
    status_code: int = 200,
) -> HTMLResponse:
    errors = errors or {}
    summary = [("email", sentence(errors["email"], "email"))] if errors.get("email") else []
    return await _render(
        request, session, None, "request_mail.html", status_code, **_MAIL_PAGES[path],
        action=f"{path}/request", sent=ACCEPTED if sent else "", email=email, errors=errors,
        summary=summary,
    )  # fmt: skip


async def _request_mail(request: Request, session: Any, ctx: Any, path: str) -> Response:
    form = await _form(request)
    email = _text(form, "email", 320).strip()
    send = {
        "/magic-link": accounts.request_magic_link,
        "/reset-password": accounts.request_password_reset,
        "/verify-email": accounts.resend_verification,
    }[path]
    try:
        if not email:
            raise BadRequest.field("email", "is required")
        await send(session, ctx, email)
    except BadRequest as exc:
        errors = _field_errors(exc) or {"form": exc.message}
        if "email" not in errors and exc.message.startswith("email:"):
            errors = {"email": exc.message.removeprefix("email:").strip()}
        return await _mail_page(request, session, path, email=email, errors=errors, status_code=400)
    return RedirectResponse(f"{path}?sent=1", status_code=303)


@router.get("/verify-email")
@public
async def verify_page(
    request: Request,
    session: SessionDep,
    token: Text = None,
    sent: Text = None,
    next: Text = None,
) -> HTMLResponse:
    """An interstitial (a mail scanner following the link spends nothing): a button that POSTs.
    Without a token: the form that mails a new link. ``next`` (from sign-up) is kept."""
    if not token:
        return await _mail_page(request, session, "/verify-email", sent=bool(sent))
    return await _render(
        request, session, None, "token.html", token=token or "", action="/verify-email",
        title="Confirm your email address", button="Confirm my address",
        next=safe_next(next, ""),
    )  # fmt: skip


@router.post("/verify-email")
@public
async def verify(request: Request, session: SessionDep) -> Response:
    form = await _form(request)
    await accounts.verify_email(session, _text(form, "token", 200))
    then = safe_next(_text(form, "next", 500), "")
    target = "/sign-in?verified=1" + (f"&next={quote(then, safe='')}" if then else "")
    return RedirectResponse(target, status_code=303)


@router.get("/magic-link")
@public
async def magic_page(
    request: Request, session: SessionDep, token: Text = None, sent: Text = None
) -> HTMLResponse:
    if not token:  # no link yet: the form that mails one
        return await _mail_page(request, session, "/magic-link", sent=bool(sent))
    return await _render(
        request, session, None, "token.html", token=token or "", action="/magic-link",
        title="Sign in with your link", button="Sign me in",
    )  # fmt: skip


@router.post("/magic-link")
@public
async def magic_sign_in(request: Request, session: SessionDep, ctx: ContextDep) -> Response:
    check_same_origin(request)  # login CSRF: a form on another site never signs in here
    form = await _form(request)
    user = await accounts.sign_in_magic(session, _text(form, "token", 200))
    new = await accounts.start_session(session, ctx, user, "magic_link", session_cookie(request))
    response = RedirectResponse("/agents", status_code=303)
    set_session_cookies(response, ctx.settings, secret_key(request), new.token)
    return response


@router.get("/sign-in")
@public
async def sign_in_page(
    request: Request, session: SessionDep, next: Text = None, verified: Text = None
) -> HTMLResponse:
    target = safe_next(next)
    notice = "Your address is confirmed: sign in." if verified else ""
    if target.startswith("/invitations/accept"):
        notice = (notice + " " if notice else "") + (
            "Sign in to accept your invitation. No account yet? Create one: the invitation "
            "waits for you."
        )
    return await _render(
        request, session, None, "sign_in.html", next=target, values={}, errors={}, notice=notice,
    )  # fmt: skip


def _sign_in_errors(exc: AgoraError) -> dict[str, str]:
    """The sign-in refusals as full sentences on their fields: wrong credentials on the
    password, an unconfirmed address on the email (the page links to a new confirmation)."""
    found = _field_errors(exc)
    if "credentials" in found:
        return {"password": "The email address or the password is wrong."}
    if "not verified" in found.get("email", ""):
        return {
            "email": "Confirm your email address first: open the link we mailed you, or ask "
            "for a new one below."
        }
    if found:
        return {k: f"{v[:1].upper()}{v[1:].rstrip('.')}." for k, v in found.items()}
    return {"form": f"{exc.message.rstrip('.')}."}


def _sign_in_summary(errors: dict[str, str]) -> list[tuple[str | None, str]]:
    return [(None if k == "form" else k, v) for k, v in errors.items()]


@router.post("/sign-in")
@mode(Mode.CALLS_OUT)
@public
async def sign_in(request: Request, unit: UnitDep, ctx: ContextDep) -> Response:
    check_same_origin(request)  # login CSRF: a form on another site never signs in here
    form = await _form(request)
    email, target = _text(form, "email", 320), safe_next(_text(form, "next", 500))
    read = await unit.session()
    try:  # the read phase: Argon2 never holds the write transaction (SQLite's write lock)
        user = await accounts.sign_in_password(
            read, ctx, email=email, password=_text(form, "password", 200)
        )
    except AgoraError as exc:
        errors = _sign_in_errors(exc)
        return await _render(
            request, read, None, "sign_in.html", exc.status_code, next=target,
            values={"email": email}, errors=errors, summary=_sign_in_summary(errors),
            unverified="not verified" in _field_errors(exc).get("email", ""),
        )  # fmt: skip
    session = await unit.write()
    new = await accounts.start_session(session, ctx, user, "password", session_cookie(request))
    response = RedirectResponse(target, status_code=303)
    set_session_cookies(response, ctx.settings, secret_key(request), new.token)
    return response


@router.post("/sign-out")
async def sign_out(
    request: Request, session: SessionDep, principal: SessionPrincipalDep, settings: SettingsDep
) -> Response:
    await _form(request)
    if principal is not None:
        await accounts.sign_out(session, principal)
    response = RedirectResponse("/sign-in", status_code=303)
    clear_session_cookies(response, settings)
    return response


@router.get("/reset-password")
@public
async def reset_page(
    request: Request, session: SessionDep, token: Text = None, sent: Text = None
) -> HTMLResponse:
    if not token:  # no link yet: the form that mails one
        return await _mail_page(request, session, "/reset-password", sent=bool(sent))
    revoked = await accounts.reset_preview(session, token)  # the confirm step names them
    return await _render(
        request, session, None, "reset.html", token=token, errors={}, revoked=revoked,
        notice=accounts.EVICTION_NOTICE,
    )  # fmt: skip


@router.post("/magic-link/request")
@public
async def request_magic_link(request: Request, session: SessionDep, ctx: ContextDep) -> Response:
    return await _request_mail(request, session, ctx, "/magic-link")


@router.post("/reset-password/request")
@public
async def request_password_reset(
    request: Request, session: SessionDep, ctx: ContextDep
) -> Response:
    return await _request_mail(request, session, ctx, "/reset-password")


@router.post("/verify-email/request")
@public
async def request_verification(request: Request, session: SessionDep, ctx: ContextDep) -> Response:
    return await _request_mail(request, session, ctx, "/verify-email")


@router.post("/reset-password")
@public
async def reset(request: Request, session: SessionDep) -> Response:
    form = await _form(request)
    token = _text(form, "token", 200)
    try:
        await accounts.reset_password(session, token, _text(form, "password", 200))
    except AgoraError as exc:
        errors = _field_errors(exc) or {"form": exc.message}
        return await _render(
            request, session, None, "reset.html", exc.status_code, token=token, errors=errors,
            revoked=[], notice=accounts.EVICTION_NOTICE,
        )  # fmt: skip
    return RedirectResponse("/sign-in", status_code=303)


@router.post("/workspace")
async def switch_workspace(
    request: Request, session: SessionDep, principal: SignedInDep
) -> Response:
    form = await _form(request)
    await accounts.switch_workspace(session, principal, _text(form, "workspaceId", 100))
    return RedirectResponse(safe_next(_text(form, "next", 500)), status_code=303)


# ---- the gallery and agents --------------------------------------------------------------


@router.get("/agents")
async def gallery(
    request: Request,
    session: SessionDep,
    principal: ViewerDep,
    q: Text = None,
    category: Text = None,
    page_number: Annotated[int, Query(alias="page", ge=1, le=10_000)] = 1,
    sort: Text = None,
    favourites: Annotated[bool, Query()] = False,
) -> HTMLResponse:
    slugs = agents.parse_category_values([category] if category else None)
    person = (
        agents.PersonFilters(principal.user_id, favourites=True)
        if favourites and principal is not None
        else None
    )
    listing = await agents.public_listing(
        session, status="VERIFIED", page=page_number, limit=24, categories=slugs, q=q,
        sort=sort or None, person=person,
    )  # fmt: skip
    shown = [a.row.id for a in listing.agents]
    liked, hired = await ratings.marks(session, principal.user_id, shown) if principal else ((), ())
    return await _render(
        request, session, principal, "gallery.html", listing=listing, q=q or "",
        category=category or "", categories=await agents.list_categories(session),
        page_number=page_number, sort=sort or "", favourites=bool(person),
        liked=liked, hired=hired, sorts=agents.SORT_LABELS,
        availability=await web.availability(session, shown),
    )  # fmt: skip


def _price(agent: Any) -> tuple[Any, Any]:
    return to_display(agent.price + agent.fee), to_display(agent.fee)


async def _agent_page(
    request: Request,
    session: Any,
    principal: Principal | None,
    agent_id: str,
    *,
    values: dict[str, Any] | None = None,
    errors: dict[str, str] | None = None,
    status_code: int = 200,
    max_credits: str | None = None,
    refusal: AgoraError | None = None,
) -> HTMLResponse:
    listed = await agents.get_listed(session, agent_id)
    payment_required = status_code == 402
    agent = listed.row if hasattr(listed, "row") else listed
    price, fee = _price(agent)
    groups = forms.fill(forms.groups(agent.input_schema), values or {}, errors or {})
    summary = forms.summary(groups)
    if errors and errors.get("maxCredits"):
        summary.append(("maxCredits", f"Maximum credits you accept: {errors['maxCredits']}"))
    return await _render(
        request, session, principal, "agent.html", status_code, agent=agent, listed=listed,
        price=price, fee=fee, groups=groups, errors=errors or {}, summary=summary,
        max_credits=max_credits if max_credits is not None else str(price),
        facts=await web.agent_facts(session, listed.row), payment_required=payment_required,
        reviews=(await ratings.of_agent(session, agent_id, offset=0, limit=10))[0],
        liked=principal is not None
        and agent.id in (await ratings.marks(session, principal.user_id, [agent.id]))[0],
        step=next_step(refusal, principal, f"/agents/{agent_id}") if refusal else None,
    )  # fmt: skip


@router.get("/agents/{agent_id}")
async def agent_page(
    request: Request, agent_id: str, session: SessionDep, principal: ViewerDep
) -> HTMLResponse:
    return await _agent_page(request, session, principal, agent_id)


@router.post("/agents/{agent_id}/hire")
async def hire(
    request: Request,
    agent_id: str,
    session: SessionDep,
    principal: SignedInDep,
    settings: SettingsDep,
) -> Response:
    form = await _form(request)
    agent = await agents.get_shown(session, agent_id)
    data = forms.input_data(agent.input_schema, form)
    max_credits = _text(form, "maxCredits", 40).strip()
    # Every problem at once: the input's (the schema's rules, as create_job checks them), the
    # maximum's format and the price above it; then create_job decides the rest (402, …).
    errors: dict[str, str] = {}
    for found in validate_input(agent.input_schema, data):
        errors.setdefault(found.field, found.reason)
    body = None
    try:
        body = JobCreate.model_validate(
            {"inputData": data, "maxAcceptedCredits": max_credits or None}
        )
    except ValueError:
        errors["maxCredits"] = "must be a number of credits"
    if body is not None:
        try:
            problem = jobs.price_limit_problem(agent, body)
        except AgoraError as exc:
            problem = exc.message
        if problem:
            errors["maxCredits"] = problem
    if errors or body is None:
        return await _agent_page(
            request, session, principal, agent_id, values=data, errors=errors,
            status_code=400, max_credits=max_credits,
        )  # fmt: skip
    try:
        created = await jobs.create_job(session, principal, agent_id, body, settings=settings)
    except AgoraError as exc:
        errors = _field_errors(exc, "inputData.")
        limit = errors.pop("maxAcceptedCredits", None)
        if limit:
            errors["maxCredits"] = limit
        if not errors:
            errors["form"] = exc.message
        return await _agent_page(
            request, session, principal, agent_id, values=data, errors=errors,
            status_code=exc.status_code, max_credits=max_credits,
            refusal=exc if "form" in errors else None,
        )  # fmt: skip
    return RedirectResponse(f"/jobs/{created.job.row.id}", status_code=303)


# ---- jobs ----------------------------------------------------------------------------------


async def _job_page(
    request: Request,
    session: Any,
    principal: Principal,
    job_id: str,
    settings: Any,
    *,
    values: dict[str, Any] | None = None,
    errors: dict[str, str] | None = None,
    status_code: int = 200,
) -> HTMLResponse:
    shown = await jobs.get_job(session, principal, job_id, settings=settings)
    events = await jobs.job_events(session, principal, job_id)
    groups: list[forms.Group] = []
    status_id = message = None
    if shown.status == INPUT_REQUIRED:
        try:
            asked = await jobs.input_request(session, principal, job_id)
            groups = forms.fill(forms.groups(asked.inputSchema), values or {}, errors or {})
            status_id, message = asked.statusId, asked.message
        except NotFound:
            groups = []
    names = await web.agent_names(session, [shown.row.agent_id])
    rated = await ratings.rated_jobs(session, [shown.row.id])
    return await _render(
        request, session, principal, "job.html", status_code, job=shown, events=events,
        my_rating=rated.get(shown.row.id),
        can_rate=shown.status in ratings.ENDED and shown.row.user_id == principal.user_id,
        agent_name=names.get(shown.row.agent_id, ""), message=message,
        job_input=await web.job_input(session, shown.row.agent_id, shown.row.input_data),
        job_files=web.job_file_views(
            await jobs.job_files(session, principal, job_id, settings=settings), settings
        ),
        summary=forms.summary(groups),
        groups=groups, status_id=status_id, errors=errors or {},
        final=shown.status in FINAL_STATUSES, price=to_display(shown.price or 0),
        refund=payments.refund_offer(shown.row),
        refund_summary=[(None, f"{errors['refund']}.")] if errors and errors.get("refund") else [],
        share_link=web.share_link(settings, shown.row.share_token),
        share_targets=await web.share_targets(session, principal),
        projects=await work.project_choices(session, principal, shown.row.project_id)
        if shown.row.workspace_id == principal.workspace_id else None,
    )  # fmt: skip


@router.get("/jobs/{job_id}")
async def job_page(
    request: Request,
    job_id: str,
    session: SessionDep,
    principal: SignedInDep,
    settings: SettingsDep,
) -> Response:
    page = await _job_page(request, session, principal, job_id, settings)
    await notification_pages.read_on_open(request, session, principal, f"job:{job_id}")
    return page


@router.get("/jobs/{job_id}/result.md")
async def job_result(
    request: Request,
    job_id: str,
    session: SessionDep,
    principal: SignedInDep,
    settings: SettingsDep,
) -> Response:
    """The result as a Markdown download (plain text: the browser never renders it)."""
    shown = await jobs.get_job(session, principal, job_id, settings=settings)
    return Response(
        shown.result or "",
        media_type="text/markdown; charset=utf-8",
        headers={
            "Content-Disposition": f'attachment; filename="job-{shown.row.id}.md"',
            "X-Content-Type-Options": "nosniff",
        },
    )


@router.post("/jobs/{job_id}/input")
async def job_input(
    request: Request,
    job_id: str,
    session: SessionDep,
    principal: SignedInDep,
    settings: SettingsDep,
) -> Response:
    form = await _form(request)
    data: dict[str, Any] = {}
    try:
        asked = await jobs.input_request(session, principal, job_id)
        data = forms.input_data(asked.inputSchema, form)
        body = JobInputs(inputData=data, statusId=_text(form, "statusId", 500) or None)
        await jobs.provide_inputs(session, principal, job_id, body, settings=settings)
    except BadRequest as exc:
        return await _job_page(
            request, session, principal, job_id, settings, values=data,
            errors=_field_errors(exc, "inputData.") or {"form": exc.message}, status_code=400,
        )  # fmt: skip
    return RedirectResponse(f"/jobs/{job_id}", status_code=303)


@router.post("/jobs/{job_id}/cancel")
async def job_cancel(
    request: Request,
    job_id: str,
    session: SessionDep,
    principal: SignedInDep,
    settings: SettingsDep,
) -> Response:
    await _form(request)
    await jobs.cancel_job(session, principal, job_id, settings=settings)
    return RedirectResponse(f"/jobs/{job_id}", status_code=303)


@router.post("/jobs/{job_id}/refund")
async def job_refund(
    request: Request,
    job_id: str,
    session: SessionDep,
    principal: SignedInDep,
    settings: SettingsDep,
) -> Response:
    """The refund button of a job bought on a payment node (``POST /v1/jobs/{id}/refund``'s
    service); a refusal (409: outside the window, pending, settled) is shown in the refund card."""
    await _form(request)
    try:
        await payments.request_refund(session, principal, job_id, settings=settings)
    except Conflict as exc:
        return await _job_page(
            request, session, principal, job_id, settings,
            errors={"refund": exc.message}, status_code=exc.status_code,
        )  # fmt: skip
    return RedirectResponse(f"/jobs/{job_id}?refund=asked", status_code=303)


@router.post("/jobs/{job_id}/share")
async def job_share(
    request: Request,
    job_id: str,
    session: SessionDep,
    principal: SignedInDep,
    settings: SettingsDep,
) -> Response:
    """Create (or change) the job's share link: ``audience`` is ``public`` or an organization id."""
    form = await _form(request)
    audience = _text(form, "audience", 100)
    body = (
        JobShareRequest(public=True)
        if audience == "public"
        else JobShareRequest(public=False, recipientOrganizationId=audience)
    )
    try:
        await jobs.share_job(session, principal, job_id, body, settings=settings)
    except BadRequest as exc:
        return await _job_page(
            request, session, principal, job_id, settings, status_code=400,
            errors={"share": exc.details[0].reason if exc.details else exc.message},
        )  # fmt: skip
    return RedirectResponse(f"/jobs/{job_id}#share", status_code=303)


@router.post("/jobs/{job_id}/share/revoke")
async def job_unshare(
    request: Request,
    job_id: str,
    session: SessionDep,
    principal: SignedInDep,
    settings: SettingsDep,
) -> Response:
    await _form(request)
    await jobs.unshare_job(session, principal, job_id, settings=settings)
    return RedirectResponse(f"/jobs/{job_id}#share", status_code=303)


@router.get("/shares/{token}")
async def shared_job_page(
    request: Request, token: str, session: SessionDep, principal: ViewerDep, settings: SettingsDep
) -> Response:
    """A shared job, read-only, for anyone the share admits (as ``GET /v1/shares/{token}``):
    what the API's shared view exposes, nothing of the sharer's workspace beyond it."""
    shared = await jobs.shared_job(session, token, principal, settings=settings)
    return await _render(
        request, session, principal, "shared.html", view=SharedJobOut.model_validate(shared)
    )


# ---- workspace: credits, keys, organizations ---------------------------------------------


@router.get("/credits")
async def credits_page(request: Request, session: SessionDep, principal: SignedInDep) -> Response:
    account = await credits.account(session, principal, limit=50)
    return await _render(
        request, session, principal, "credits.html", account=account,
        balance=to_display(account.balance), held=to_display(account.held),
        shortfall=account.shortfall,
        purchases=await billing_service.list_purchases(session, principal, limit=50),
    )  # fmt: skip


async def _keys_page(
    request: Request,
    session: Any,
    principal: Principal,
    *,
    created: str = "",
    errors: dict[str, str] | None = None,
    name: str = "",
    status_code: int = 200,
) -> HTMLResponse:
    keys = await accounts.list_keys(session, principal)
    errors = errors or {}
    summary = [("key-name", sentence(errors["name"], "name"))] if errors.get("name") else []
    if errors.get("password"):
        summary.append(("key-password", sentence(errors["password"], "password")))
    return await _render(
        request, session, principal, "keys.html", status_code, keys=keys, created=created,
        errors=errors, summary=summary, key_name=name,
        reauth_minutes=f"{request.app.state.settings.key_reauth_minutes:g}",
    )  # fmt: skip


@router.get("/keys")
async def keys_page(request: Request, session: SessionDep, principal: SignedInDep) -> Response:
    # A key just created (POST /keys → 303 here) is shown once: sealed for this session in a
    # one-path cookie (web/flash.py), deleted by this answer.
    response = await _keys_page(request, session, principal, created=flash.take(request, "/keys"))
    flash.clear(request, response, "/keys")
    return response


@router.post("/keys")
@mode(Mode.CALLS_OUT)
async def create_key(
    request: Request, unit: UnitDep, principal: SignedInDep, ctx: ContextDep
) -> Response:
    form = await _form(request)
    settings, password = ctx.settings, _text(form, "password", 1024)
    name = _text(form, "name", 300)
    try:
        if password:  # a session creates keys only after a recent password proof, checked in
            # the read phase: Argon2 never holds the write transaction
            await accounts.check_password(await unit.session(), ctx, principal, password)
        session = await unit.write()
        if password:
            await accounts.reauthenticate(session, principal)
        _key, plaintext = await accounts.create_key(
            session, settings, principal, name=name, expires_at=None,
            scopes=None, workspace_id=None,
        )  # fmt: skip
    except AgoraError as exc:
        errors = _field_errors(exc)
        if errors.get("password"):  # the whole sentence: what is asked and why
            errors["password"] = exc.message
        elif not errors.get("name"):
            errors = {"form": exc.message}
        return await _keys_page(
            request,
            await unit.session(),
            principal,
            errors=errors,
            name=name,
            status_code=exc.status_code,
        )
    # Post/Redirect/Get: a reload of the next page creates nothing. The key is shown once, by
    # that page (never stored in the clear, never in a URL).
    response = RedirectResponse("/keys", status_code=303)
    flash.put(request, response, settings, "/keys", plaintext)
    return response


@router.post("/keys/{key_id}/revoke")
async def revoke_key(
    request: Request, key_id: str, session: SessionDep, principal: SignedInDep
) -> Response:
    await _form(request)
    await accounts.revoke_key(session, principal, key_id)
    return RedirectResponse("/keys", status_code=303)


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


@router.post("/organizations/{org_id}/invitations")
async def invite(
    request: Request, org_id: str, session: SessionDep, principal: SignedInDep, ctx: ContextDep
) -> Response:
    """Invite by email or by link (web/organizations.py; here for the accounts' mail context)."""
    return await organizations_pages.invite(request, org_id, session, principal, ctx)
