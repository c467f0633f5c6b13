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
from agora.kit.errors import NotFound
from agora.kit.timeutil import utcnow
from agora.kit.units import UnitOfWorkRoute
from agora.mip003.validation import NUMBER_TYPES
from agora.schedules import service as schedules
from agora.web import forms
from agora.web.shell import SignedInDep, Text
from agora.web.shell import render as _render

router = APIRouter(include_in_schema=False, route_class=UnitOfWorkRoute)


@router.get("/schedules")
async def schedules_page(
    request: Request, session: SessionDep, principal: SignedInDep, agent: Text = None
) -> HTMLResponse:
    """The schedules and the new-schedule form: its input is the hire form of the chosen agent
    (``?agent=``; the first listed by default), generated from the agent's input schema."""
    rows, _ = await schedules.list_schedules(session, principal, cursor=None, limit=100)
    listing = await agents.cursor_listing(session, cursor=None, limit=100, categories=[])
    ids = [str(a.row.id) for a in listing.agents]
    chosen = agent if agent in ids else (ids[0] if ids else None)
    groups: list[forms.Group] = []
    if chosen is not None:
        groups = forms.groups((await agents.get_listed(session, chosen)).row.input_schema)
    return await _render(
        request, session, principal, "schedules.html", schedules=rows, agents=listing.agents,
        chosen=chosen, groups=groups, fields=field_kinds(groups),
    )  # fmt: skip


def field_kinds(groups: list[forms.Group]) -> list[dict[str, object]]:
    """What schedules.js needs to turn the generated form into ``inputData`` the way
    ``forms.input_data`` does for the hire form (numbers, yes/no, lists)."""
    return [
        {"id": f.id, "name": f.form_name, "widget": f.widget, "multiple": f.multiple,
         "number": f.type in NUMBER_TYPES}
        for group in groups
        for f in group.fields
        if f.widget != "none"
    ]  # fmt: skip


@router.get("/schedules/{schedule_id}")
async def schedule_page(
    request: Request, schedule_id: str, session: SessionDep, principal: SignedInDep
) -> HTMLResponse:
    schedule, upcoming = await schedules.occurrences(session, principal, schedule_id, now=utcnow())
    runs, _ = await schedules.list_runs(session, principal, schedule_id, cursor=None, limit=100)
    try:  # the agent's form with the schedule's input; raw JSON if the agent is gone
        shown = await agents.get_listed(session, str(schedule.agent_id))
        groups = forms.fill(forms.groups(shown.row.input_schema), dict(schedule.input_data), {})
    except NotFound:
        groups = []
    return await _render(
        request, session, principal, "schedule.html",
        schedule=schedule, runs=runs, groups=groups, fields=field_kinds(groups),
        upcoming=upcoming.local,
    )  # fmt: skip
