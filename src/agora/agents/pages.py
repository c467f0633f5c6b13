"""The gallery: the catalogue's page (search, categories, sorts, favourites, availability)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse

from agora.agents import service as agents
from agora.auth.dependencies import (
    SessionDep,
)
from agora.kit.units import UnitOfWorkRoute
from agora.ratings import service as ratings
from agora.web import service as web
from agora.web.shell import Text, ViewerDep
from agora.web.shell import render as _render

router = APIRouter(include_in_schema=False, route_class=UnitOfWorkRoute)

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
