"""The web app's trust pages: favouriting an agent, rating a finished job, running one input
through each compared agent (one job each, one page following them all; the comparison itself is
agents/pages.py). Decisions: docs/agents.md ("Ratings and reviews", "Compare")."""

from __future__ import annotations

from typing import Annotated
from urllib.parse import urlencode

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from agora.agents import service as agents
from agora.agents import views as agent_views
from agora.auth.dependencies import SessionDep, SettingsDep
from agora.jobs import service as jobs
from agora.jobs.lifecycle import FINAL_STATUSES
from agora.jobs.schemas import JobCreate
from agora.kit.errors import BadRequest
from agora.kit.units import UnitOfWorkRoute
from agora.mip003.validation import validate_input
from agora.ratings import service as ratings
from agora.web import forms
from agora.web.shell import SignedInDep, posted, safe_next, text
from agora.web.shell import render as _render

router = APIRouter(include_in_schema=False, route_class=UnitOfWorkRoute)

Ids = Annotated[list[str] | None, Query(max_length=300)]


@router.post("/agents/{agent_id}/favourite")
async def favourite(
    request: Request, agent_id: str, session: SessionDep, principal: SignedInDep
) -> Response:
    form = await posted(request)
    wanted = text(form, "favourite", 5) != "0"
    await ratings.set_favourite(session, principal, agent_id, wanted)
    target = safe_next(text(form, "next", 500), f"/agents/{agent_id}")
    return RedirectResponse(target, status_code=303)


@router.post("/jobs/{job_id}/rate")
async def rate(
    request: Request, job_id: str, session: SessionDep, principal: SignedInDep
) -> Response:
    form = await posted(request)
    raw = text(form, "stars", 2)
    if not raw.isdigit() or not 1 <= int(raw) <= 5:
        raise BadRequest.field("stars", "choose 1 to 5 stars")
    review = text(form, "review", 2000) or None
    existing = text(form, "rating_id", 100)
    if existing:
        await ratings.edit(
            session, principal, existing, stars=int(raw), review=review, review_given=True
        )
    else:
        await ratings.rate(session, principal, job_id, int(raw), review)
    return RedirectResponse(f"/jobs/{job_id}#rating", status_code=303)


@router.post("/agents/compare/run")
async def compare_run(
    request: Request, session: SessionDep, principal: SignedInDep, settings: SettingsDep
) -> Response:
    """One job per compared agent with the same input; then the page that follows them."""
    form = await posted(request)
    ids = agents.parse_compared([v for v in form.getlist("ids") if isinstance(v, str)])
    created = []
    for agent_id in ids:
        agent = await agents.get_shown(session, agent_id)
        data = forms.input_data(agent.input_schema, form)
        problems = validate_input(agent.input_schema, data)
        if problems:
            raise BadRequest.field(f"inputData.{problems[0].field}", problems[0].reason)
        body = JobCreate.model_validate({"inputData": data})
        job = await jobs.create_job(session, principal, agent_id, body, settings=settings)
        created.append(str(job.job.row.id))
    return RedirectResponse(
        "/jobs/following?" + urlencode([("ids", i) for i in created]), status_code=303
    )


@router.get("/jobs/following")
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
    return await _render(
        request, session, principal, "following.html", jobs=shown, names=names, done=done
    )
