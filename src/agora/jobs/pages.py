"""The agent page with its hire form, the job page (answer, cancel, refund, share, the result
as Markdown) and shared jobs (docs/web.md)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from agora.agents import service as agents
from agora.agents import views as agent_views
from agora.auth.dependencies import (
    SessionDep,
    SettingsDep,
)
from agora.auth.principal import Principal
from agora.jobs import service as jobs
from agora.jobs.lifecycle import FINAL_STATUSES, INPUT_REQUIRED
from agora.jobs.schemas import JobCreate, JobInputs, JobShareRequest, SharedJobOut
from agora.kit.errors import AgoraError, BadRequest, Conflict, NotFound
from agora.kit.money import to_display
from agora.kit.units import UnitOfWorkRoute
from agora.mip003.validation import validate_input
from agora.notifications import pages as notification_pages
from agora.payments import service as payments
from agora.ratings import service as ratings
from agora.tasks import pages as work
from agora.web import forms
from agora.web import service as web
from agora.web.nextsteps import next_step
from agora.web.shell import SignedInDep, ViewerDep
from agora.web.shell import field_errors as _field_errors
from agora.web.shell import posted as _form
from agora.web.shell import render as _render
from agora.web.shell import text as _text

router = APIRouter(include_in_schema=False, route_class=UnitOfWorkRoute)

router = APIRouter(include_in_schema=False, route_class=UnitOfWorkRoute)


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
        facts=await agent_views.agent_facts(session, listed.row), payment_required=payment_required,
        reviews=(await ratings.of_agent(session, agent_id, offset=0, limit=10))[0],
        liked=principal is not None
        and agent.id in (await agent_views.marks(session, principal.user_id, [agent.id]))[0],
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
    names = await agent_views.agent_names(session, [shown.row.agent_id])
    rated = await ratings.rated_jobs(session, [shown.row.id])
    return await _render(
        request, session, principal, "job.html", status_code, job=shown, events=events,
        my_rating=rated.get(shown.row.id),
        can_rate=shown.status in ratings.ENDED and shown.row.user_id == principal.user_id,
        agent_name=names.get(shown.row.agent_id, ""), message=message,
        job_input=await agent_views.job_input(session, shown.row.agent_id, shown.row.input_data),
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
