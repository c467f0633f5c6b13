"""MCP tools of ratings and favourites (docs/ratings.md)."""

from __future__ import annotations

from typing import Any

from mcp.server.mcpserver import Context

from agora.auth.principal import Permission
from agora.kit.units import Mode
from agora.mcp.runner import Tool, dump, tool_call, validated
from agora.ratings import service
from agora.ratings.schemas import RatingCreate, RatingOut, RatingUpdate

JOBS_WRITE = Permission.JOBS_WRITE


async def rate_job(
    ctx: Context, job_id: str, stars: int, review: str | None = None
) -> dict[str, Any]:
    """Rate the agent that ran one of your jobs, once the job has ended (COMPLETED or
    FAILED): stars 1 to 5 and an optional review. One rating per person per agent: rating
    it again from a later job replaces yours; change it within 7 days with update_rating."""
    fields = validated(RatingCreate, jobId=job_id, stars=stars, review=review)
    async with tool_call(ctx, JOBS_WRITE, Mode.WRITE) as call:
        rated = await service.rate(
            call.session, call.principal, fields.jobId, fields.stars, fields.review
        )
        return dump(RatingOut.model_validate(rated.rating))


async def update_rating(
    ctx: Context, rating_id: str, stars: int | None = None, review: str | None = None
) -> dict[str, Any]:
    """Change your rating's stars and/or review (within 7 days of rating)."""
    fields = validated(RatingUpdate, stars=stars, review=review)
    async with tool_call(ctx, JOBS_WRITE, Mode.WRITE) as call:
        rating = await service.edit(
            call.session,
            call.principal,
            rating_id,
            stars=fields.stars,
            review=fields.review,
            review_given=review is not None,
        )
        return dump(RatingOut.model_validate(rating))


async def favourite_agent(ctx: Context, agent_id: str, favourite: bool = True) -> dict[str, Any]:
    """Mark an agent as a favourite (favourite=false: no longer). search_agents with
    favourites=true lists them."""
    async with tool_call(ctx, JOBS_WRITE, Mode.WRITE) as call:
        await service.set_favourite(call.session, call.principal, agent_id, favourite)
    return {"agentId": agent_id, "favourite": favourite}


async def add_to_assistant(ctx: Context, agent_id: str, added: bool = True) -> dict[str, Any]:
    """Add an agent to your assistant (added=false: remove it): it becomes a tool of its own,
    hire_<slug>, with its input schema as the tool's arguments (favourites are tools too).
    Your connected sessions are told the tool list changed."""
    async with tool_call(ctx, JOBS_WRITE, Mode.WRITE) as call:
        await service.set_in_assistant(call.session, call.principal, agent_id, added)
    return {"agentId": agent_id, "assistant": added}


TOOLS: list[Tool] = [rate_job, update_rating, favourite_agent, add_to_assistant]
