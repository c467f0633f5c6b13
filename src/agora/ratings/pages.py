"""The web app's trust pages: favouriting an agent, rating a finished job (comparing agents is
agents/pages.py; running one input through each compared agent, and following those jobs, is
jobs/pages.py). Decisions: docs/agents.md ("Ratings and reviews", "Compare")."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request
from fastapi.responses import RedirectResponse, Response

from agora.auth.dependencies import SessionDep
from agora.kit.errors import BadRequest
from agora.kit.units import UnitOfWorkRoute
from agora.ratings import service as ratings
from agora.web.shell import SignedInDep, posted, safe_next, text, toasted

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
    return toasted(request, target, "favourite-added" if wanted else "favourite-removed")


@router.post("/agents/{agent_id}/assistant")
async def assistant(
    request: Request, agent_id: str, session: SessionDep, principal: SignedInDep
) -> Response:
    """Add the agent to my assistant (its own MCP tool), or remove it (``assistant=0``)."""
    form = await posted(request)
    wanted = text(form, "assistant", 5) != "0"
    await ratings.set_in_assistant(session, principal, agent_id, wanted)
    return toasted(
        request, f"/agents/{agent_id}", "assistant-added" if wanted else "assistant-removed"
    )


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
    # The person's one rating of the agent: changed when it rates this job, replaced from a
    # later hire's page (ratings.service.rate), as the API does.
    mine = await ratings.get_own(session, principal, existing) if existing else None
    if mine is not None and str(mine.row.job_id) == job_id:
        await ratings.edit(
            session, principal, existing, stars=int(raw), review=review, review_given=True
        )
    else:
        await ratings.rate(session, principal, job_id, int(raw), review)
    return RedirectResponse(f"/jobs/{job_id}#rating", status_code=303)
