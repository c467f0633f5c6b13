"""The catalogue's pages: the gallery (search, categories, sorts, favourites, availability) and
agents compared side by side. ``GET /agents/compare`` comes before the agent page
(``/agents/{agent_id}``, jobs/pages.py), which api.PAGES lists later."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse

from agora.agents import comparison, filters, views
from agora.agents import service as agents
from agora.auth.dependencies import SessionDep
from agora.kit.money import to_display
from agora.kit.units import UnitOfWorkRoute
from agora.models.statuses import AgentStatus
from agora.web import forms
from agora.web.shell import Text, ViewerDep, render

router = APIRouter(include_in_schema=False, route_class=UnitOfWorkRoute)


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
    conformant: Annotated[bool, Query()] = False,
) -> HTMLResponse:
    slugs = filters.parse_category_values([category] if category else None)
    person = (
        filters.PersonFilters(principal.user_id, favourites=True)
        if favourites and principal is not None
        else None
    )
    listing = await agents.public_listing(
        session, status=AgentStatus.VERIFIED, page=page_number, limit=24, categories=slugs, q=q,
        sort=sort or None, person=person, conformant=conformant,
    )  # fmt: skip
    shown = [a.row.id for a in listing.agents]
    liked, hired = await views.marks(session, principal.user_id, shown) if principal else ((), ())
    return await render(
        request, session, principal, "gallery.html", listing=listing, q=q or "",
        category=category or "", categories=await agents.list_categories(session),
        page_number=page_number, sort=sort or "", favourites=bool(person),
        liked=liked, hired=hired, sorts=filters.SORT_LABELS,
        availability=await views.availability(session, shown), conformant=conformant,
        badges=await views.badges(session, shown),
    )  # fmt: skip


@router.get("/agents/compare")
async def compare_page(
    request: Request,
    session: SessionDep,
    principal: ViewerDep,
    ids: Annotated[list[str] | None, Query(max_length=300)] = None,
) -> HTMLResponse:
    compared = await comparison.compare(session, agents.parse_compared(ids))
    return await render(
        request, session, principal, "compare.html", compared=compared,
        prices={c.row.id: to_display(c.row.price + c.row.fee) for c in compared},
        groups=forms.groups(compared[0].row.input_schema), ids=[str(c.row.id) for c in compared],
        errors={},
    )  # fmt: skip
