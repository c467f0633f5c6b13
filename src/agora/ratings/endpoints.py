"""Ratings, reviews, replies, reports and favourites (bearer family: Envelope B, Detailed
errors). Decisions: docs/agents.md, "Ratings and reviews"."""

from __future__ import annotations

from typing import Annotated

from fastapi import Path, Query, Request, Response

from agora.auth.dependencies import Admin, JobsWriter, Reader, SessionDep, public
from agora.kit.envelopes import EnvelopeB, meta_b
from agora.kit.families import bearer_router
from agora.kit.openapi import errors
from agora.kit.pagination import PageDep
from agora.ratings import service
from agora.ratings.schemas import (
    RatingCreate,
    RatingOut,
    RatingUpdate,
    ReplyCreate,
    ReportCreate,
    ReportOut,
)

router = bearer_router(tags=["ratings"])
admin_router = bearer_router(prefix="/admin", tags=["admin"])

# The path parameters of ratings' routes. Ids stay ``str`` in the path: a malformed id answers the
# same 404 as an unknown one (ids are opaque), which a ``UUID`` path type would turn into a 400.
AgentId = Annotated[str, Path(alias="agentId")]
RatingId = Annotated[str, Path(alias="ratingId")]
ReportId = Annotated[str, Path(alias="reportId")]


def _one(request: Request, rating: service.ShownRating) -> EnvelopeB[RatingOut]:
    """The answer of every route that returns one rating."""
    return EnvelopeB[RatingOut](data=rating, meta=meta_b(request))


@router.post("/ratings", status_code=201, operation_id="rateJob", openapi_extra=errors(404, 409))
async def rate_job(
    body: RatingCreate,
    request: Request,
    response: Response,
    session: SessionDep,
    principal: JobsWriter,
) -> EnvelopeB[RatingOut]:
    """Rate the agent that ran one of your jobs, once it ended COMPLETED or FAILED: 1-5 stars and
    an optional review. One rating per person per agent: the first is created (201); rating it
    again from a later job replaces yours (200); from the same or an earlier job: 409. Another
    person's job is a 404."""
    rated = await service.rate(session, principal, body.jobId, body.stars, body.review)
    if not rated.created:
        response.status_code = 200
    return _one(request, rated.rating)


@router.get("/ratings/{ratingId}", operation_id="getRating")
async def get_rating(
    rating_id: RatingId, request: Request, session: SessionDep, principal: Reader
) -> EnvelopeB[RatingOut]:
    """One of your ratings."""
    return _one(request, await service.get_own(session, principal, rating_id))


@router.patch("/ratings/{ratingId}", operation_id="updateRating", openapi_extra=errors(409))
async def update_rating(
    body: RatingUpdate,
    rating_id: RatingId,
    request: Request,
    session: SessionDep,
    principal: JobsWriter,
) -> EnvelopeB[RatingOut]:
    """Change your rating's stars or review (null removes it) within 7 days of rating."""
    rating = await service.edit(
        session,
        principal,
        rating_id,
        stars=body.stars,
        review=body.review,
        review_given="review" in body.model_fields_set,
    )
    return _one(request, rating)


@router.post("/ratings/{ratingId}/reply", operation_id="replyToRating", openapi_extra=errors(409))
async def reply_to_rating(
    body: ReplyCreate,
    rating_id: RatingId,
    request: Request,
    session: SessionDep,
    principal: JobsWriter,
) -> EnvelopeB[RatingOut]:
    """The agent's developer answers a review, once (ratings of other agents: 404)."""
    rating = await service.reply(session, principal, rating_id, body.reply)
    return _one(request, rating)


@router.post(
    "/ratings/{ratingId}/reports",
    status_code=204,
    operation_id="reportRating",
    openapi_extra=errors(409),
)
async def report_rating(
    body: ReportCreate, rating_id: RatingId, session: SessionDep, principal: JobsWriter
) -> Response:
    """Report an abusive review to the operator (once per person)."""
    await service.report(session, principal, rating_id, body.reason)
    return Response(status_code=204)


@router.get(
    "/agents/{agentId}/ratings",
    operation_id="listAgentRatings",
    openapi_extra={"security": [], **errors(429)},
)
@public
async def list_agent_ratings(
    agent_id: AgentId, request: Request, session: SessionDep, page: PageDep
) -> EnvelopeB[list[RatingOut]]:
    """An agent's ratings and reviews, newest first (no authentication; hirers not named)."""
    ratings, total = await service.of_agent(session, agent_id, offset=page.offset, limit=page.limit)
    return EnvelopeB[list[RatingOut]](data=ratings, meta=meta_b(request, page.meta(total)))


@router.put("/agents/{agentId}/favourite", status_code=204, operation_id="favouriteAgent")
async def favourite_agent(
    agent_id: AgentId, session: SessionDep, principal: JobsWriter
) -> Response:
    """Mark an agent as a favourite (`GET /v1/agents?favourites=true` lists them)."""
    await service.set_favourite(session, principal, agent_id, True)
    return Response(status_code=204)


@router.delete("/agents/{agentId}/favourite", status_code=204, operation_id="unfavouriteAgent")
async def unfavourite_agent(
    agent_id: AgentId, session: SessionDep, principal: JobsWriter
) -> Response:
    """No longer a favourite."""
    await service.set_favourite(session, principal, agent_id, False)
    return Response(status_code=204)


@router.put("/agents/{agentId}/assistant", status_code=204, operation_id="addAgentToAssistant")
async def add_to_assistant(
    agent_id: AgentId, session: SessionDep, principal: JobsWriter
) -> Response:
    """Add the agent to your assistant: your MCP sessions get a tool of its own to hire it
    (`hire_<slug>`, docs/mcp.md) and are told their tool list changed."""
    await service.set_in_assistant(session, principal, agent_id, True)
    return Response(status_code=204)


@router.delete(
    "/agents/{agentId}/assistant", status_code=204, operation_id="removeAgentFromAssistant"
)
async def remove_from_assistant(
    agent_id: AgentId, session: SessionDep, principal: JobsWriter
) -> Response:
    """Remove the agent from your assistant (a favourite keeps its tool)."""
    await service.set_in_assistant(session, principal, agent_id, False)
    return Response(status_code=204)


@admin_router.get("/rating-reports", operation_id="adminListRatingReports")
async def list_reports(
    request: Request,
    session: SessionDep,
    page: PageDep,
    _admin: Admin,
    state: Annotated[
        str, Query(pattern="^(open|all)$", description="open (default) or all")
    ] = "open",
) -> EnvelopeB[list[ReportOut]]:
    """Reports of abusive reviews, oldest first: the operator's queue."""
    reports, total = await service.reports(
        session, open_only=state == "open", offset=page.offset, limit=page.limit
    )
    return EnvelopeB[list[ReportOut]](data=reports, meta=meta_b(request, page.meta(total)))


@admin_router.post(
    "/rating-reports/{reportId}/resolve", status_code=204, operation_id="adminResolveRatingReport"
)
async def resolve_report(
    report_id: ReportId,
    session: SessionDep,
    _admin: Admin,
    remove_review: Annotated[
        bool, Query(alias="removeReview", description="Also remove the review's text")
    ] = False,
) -> Response:
    """Close a report; `removeReview=true` also removes the review's text (the stars stay)."""
    await service.resolve_report(session, report_id, remove_review=remove_review)
    return Response(status_code=204)
