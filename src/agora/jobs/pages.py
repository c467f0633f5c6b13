"""The agent page with its hire form, running one input through compared agents, the job page
(answer, cancel, share, the result as Markdown), following a few jobs, and shared jobs
(docs/web.md). Pages render through jobs/rendering.py (the refund button's page is payments')."""

from __future__ import annotations

from typing import Annotated
from urllib.parse import urlencode

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from pydantic import ValidationError

from agora.agents import service as agents
from agora.agents import views as agent_views
from agora.auth.dependencies import SessionDep, SettingsDep
from agora.jobs import results
from agora.jobs import service as jobs
from agora.jobs.admission import default_job_name
from agora.jobs.lifecycle import FINAL_STATUSES
from agora.jobs.rendering import JobPostDep, agent_page, hire_errors, job_page
from agora.jobs.schemas import JobCreate, JobInputs, JobShareRequest, SharedJobOut
from agora.kit import csvexport
from agora.kit.errors import AgoraError, BadRequest, FieldError, NotFound
from agora.kit.timeutil import utcnow
from agora.kit.units import UnitOfWorkRoute
from agora.notifications import service as notifications
from agora.web import forms
from agora.web.render import reader_zone
from agora.web.shell import SignedInDep, ViewerDep, field_errors, posted, render, text

router = APIRouter(include_in_schema=False, route_class=UnitOfWorkRoute)

Ids = Annotated[list[str] | None, Query(max_length=300)]


@router.get("/agents/{agent_id}")
async def agent(
    request: Request,
    agent_id: str,
    session: SessionDep,
    principal: ViewerDep,
    settings: SettingsDep,
    from_job: Annotated[str | None, Query(max_length=100)] = None,
    saved_input: Annotated[str | None, Query(alias="savedInput", max_length=100)] = None,
) -> HTMLResponse:
    """The agent page; ``?from_job=ID`` (the job page's "Run again") fills the hire form with
    that job's input and maximum: the caller's own job of this agent, else 404;
    ``?savedInput=ID``: one of your saved inputs fills it."""
    if not from_job:
        return await agent_page(request, session, principal, agent_id, saved_input=saved_input)
    if principal is None:
        raise NotFound(f"Job {from_job} not found")
    body = await jobs.rerun_form(session, principal, from_job, agent_id, settings=settings)
    limit = body.maxAcceptedCredits
    return await agent_page(
        request, session, principal, agent_id, values=body.inputData,
        max_credits=str(limit) if limit is not None else None,
    )  # fmt: skip


def _job_name(request: Request, agent_name: str) -> str:
    """A job hired from a page is named as the API names one, at the time in the reader's zone
    ("Echo · 2026-11-28 10:15 CET")."""
    return default_job_name(agent_name, utcnow(), reader_zone(request))


def _hire_body(
    data: dict[str, object], max_credits: str, name: str
) -> tuple[JobCreate, list[FieldError]]:
    """The hire form as a job's body; a maximum that is not a number is a problem of its own,
    refused with the admission's."""
    try:
        body = JobCreate.model_validate(
            {"inputData": data, "maxAcceptedCredits": max_credits or None, "name": name}
        )
    except ValidationError:
        unread = FieldError("maxAcceptedCredits", "must be a number of credits")
        return JobCreate(inputData=data, name=name), [unread]
    return body, []


@router.post("/agents/{agent_id}/hire")
async def hire(
    request: Request,
    agent_id: str,
    session: SessionDep,
    principal: SignedInDep,
    settings: SettingsDep,
) -> Response:
    """Hire the agent (job admission, every problem of the form at once)."""
    form = await posted(request)
    agent = await agents.get_shown(session, agent_id)
    data = forms.input_data(agent.input_schema, form)
    max_credits = text(form, "maxCredits", 40).strip()
    body, unread = _hire_body(data, max_credits, _job_name(request, agent.name))
    try:
        created = await jobs.create_job(
            session, principal, agent_id, body, settings=settings, every_problem=True, found=unread
        )
    except AgoraError as exc:
        errors = hire_errors(exc)
        return await agent_page(
            request, session, principal, agent_id, values=data, errors=errors,
            status_code=exc.status_code, max_credits=max_credits,
            refusal=exc if "form" in errors else None,
        )  # fmt: skip
    return RedirectResponse(f"/jobs/{created.job.row.id}", status_code=303)


@router.post("/agents/compare/run")
async def compare_run(
    request: Request, session: SessionDep, principal: SignedInDep, settings: SettingsDep
) -> Response:
    """One job per compared agent with the same input (job admission, each); then the page that
    follows them."""
    form = await posted(request)
    created = []
    for agent_id in agents.parse_compared([v for v in form.getlist("ids") if isinstance(v, str)]):
        agent = await agents.get_shown(session, agent_id)
        body = JobCreate(
            inputData=forms.input_data(agent.input_schema, form),
            name=_job_name(request, agent.name),
        )
        job = await jobs.create_job(session, principal, agent_id, body, settings=settings)
        created.append(str(job.job.row.id))
    return RedirectResponse(
        "/jobs/following?" + urlencode([("ids", i) for i in created]), status_code=303
    )


@router.get("/jobs/export.csv")  # before /jobs/{job_id}
async def jobs_export(
    request: Request,
    principal: SignedInDep,
    scope: Annotated[str, Query(max_length=20)] = "owned",
) -> Response:
    """Every job of yours (``scope=workspace``: the workspace's) as CSV, streamed (as
    ``GET /v1/jobs/export``)."""
    return csvexport.download(request.app.state.db, jobs.jobs_export(principal, scope=scope))


@router.get("/jobs/following")  # before /jobs/{job_id}
async def following(
    request: Request,
    session: SessionDep,
    principal: SignedInDep,
    settings: SettingsDep,
    ids: Ids = None,
) -> HTMLResponse:
    job_ids = [i for raw in ids or [] for i in raw.split(",") if i.strip()][:3]
    if not job_ids:
        raise BadRequest.field("ids", "name 1 to 3 of your jobs")
    shown = [await jobs.get_job(session, principal, i, settings=settings) for i in job_ids]
    names = await agent_views.agent_names(session, [s.row.agent_id for s in shown])
    done = all(s.status in FINAL_STATUSES for s in shown)
    return await render(
        request, session, principal, "following.html", jobs=shown, names=names, done=done
    )


@router.get("/jobs/{job_id}")
async def job(
    request: Request,
    job_id: str,
    session: SessionDep,
    principal: SignedInDep,
    settings: SettingsDep,
) -> Response:
    page = await job_page(request, session, principal, job_id, settings)
    await notifications.read_when_opened(session, principal, f"job:{job_id}")
    return page


@router.get("/jobs/{job_id}/result.md")
async def job_result(
    job_id: str, session: SessionDep, principal: SignedInDep, settings: SettingsDep
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


@router.get("/jobs/{job_id}/result.{kind}")
async def job_result_as(
    job_id: str, kind: str, session: SessionDep, principal: SignedInDep
) -> Response:
    """The result as JSON or CSV (``GET /v1/jobs/{id}/result?format=``); ``.md`` is above."""
    if kind not in ("json", "csv"):
        raise NotFound(f"No result.{kind[:20]}")
    found = await results.result_file(session, principal, job_id, kind)
    return Response(
        found.body,
        media_type=found.media_type,
        headers={
            "Content-Disposition": f'attachment; filename="{found.filename}"',
            "X-Content-Type-Options": "nosniff",
        },
    )


@router.post("/jobs/{job_id}/input")
async def job_input(post: JobPostDep) -> Response:
    """Answer the agent's input request (the form's fields are the request's schema)."""
    data: dict[str, object] = {}
    try:
        asked = await jobs.input_request(post.session, post.principal, post.job_id)
        data = forms.input_data(asked.inputSchema, post.form)
        body = JobInputs(inputData=data, statusId=text(post.form, "statusId", 500) or None)
        await jobs.provide_inputs(
            post.session, post.principal, post.job_id, body, settings=post.settings
        )
    except BadRequest as exc:
        return await post.again(400, field_errors(exc, "inputData.") or {"form": exc.message}, data)
    return post.back()


@router.post("/jobs/{job_id}/cancel")
async def job_cancel(post: JobPostDep) -> Response:
    await jobs.cancel_job(post.session, post.principal, post.job_id, settings=post.settings)
    return post.back()


@router.post("/jobs/{job_id}/share")
async def job_share(post: JobPostDep) -> Response:
    """Create (or change) the job's share link: ``audience`` is ``public`` or an organization id."""
    audience = text(post.form, "audience", 100)
    body = (
        JobShareRequest(public=True)
        if audience == "public"
        else JobShareRequest(public=False, recipientOrganizationId=audience)
    )
    try:
        await jobs.share_job(
            post.session, post.principal, post.job_id, body, settings=post.settings
        )
    except BadRequest as exc:
        return await post.again(
            400, {"share": exc.details[0].reason if exc.details else exc.message}
        )
    return post.back("#share")


@router.post("/jobs/{job_id}/share/revoke")
async def job_unshare(post: JobPostDep) -> Response:
    await jobs.unshare_job(post.session, post.principal, post.job_id, settings=post.settings)
    return post.back("#share")


@router.get("/shares/{token}")
async def shared_job(
    request: Request, token: str, session: SessionDep, principal: ViewerDep, settings: SettingsDep
) -> Response:
    """A shared job, read-only, for anyone the share admits (as ``GET /v1/shares/{token}``):
    what the API's shared view exposes, nothing of the sharer's workspace beyond it."""
    shared = await jobs.shared_job(session, token, principal, settings=settings)
    return await render(
        request, session, principal, "shared.html", view=SharedJobOut.model_validate(shared)
    )
