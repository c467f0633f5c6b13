"""The web app's schedule pages (docs/schedules.md): ``/schedules`` lists them and creates one
(the next five occurrences shown as the rule is typed, before saving), ``/schedules/{id}`` shows
one with its next occurrences and its runs, refreshed while the page is open. The pages read
through the service; the form and the refresh call the API (cookie + X-CSRF-Token) from
``static/schedules.js``, as the billing page does."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from agora.agents import service as agents
from agora.auth.dependencies import SessionDep
from agora.kit.timeutil import utcnow
from agora.kit.units import UnitOfWorkRoute
from agora.schedules import service as schedules
from agora.web.shell import SignedInDep
from agora.web.shell import render as _render

router = APIRouter(include_in_schema=False, route_class=UnitOfWorkRoute)


@router.get("/schedules")
async def schedules_page(
    request: Request, session: SessionDep, principal: SignedInDep
) -> HTMLResponse:
    rows, _ = await schedules.list_schedules(session, principal, cursor=None, limit=100)
    listing = await agents.cursor_listing(session, cursor=None, limit=100, categories=[])
    return await _render(
        request, session, principal, "schedules.html", schedules=rows, agents=listing.agents
    )


@router.get("/schedules/{schedule_id}")
async def schedule_page(
    request: Request, schedule_id: str, session: SessionDep, principal: SignedInDep
) -> HTMLResponse:
    schedule, upcoming = await schedules.occurrences(session, principal, schedule_id, now=utcnow())
    runs, _ = await schedules.list_runs(session, principal, schedule_id, cursor=None, limit=100)
    return await _render(
        request, session, principal, "schedule.html",
        schedule=schedule, runs=runs,
        upcoming=upcoming.local,
    )  # fmt: skip
