"""MCP tools of the catalogue: browse, search, compare and read agents (docs/mcp.md)."""

from __future__ import annotations

from typing import Any

from mcp.server.mcpserver import Context
from mcp.types import TextContent

from agora.agents import comparison, filters, saved_inputs, service
from agora.agents import search as agent_search
from agora.agents.schemas import (
    AgentDetailOut,
    AgentOut,
    CategoryOut,
    ComparedAgentOut,
    SavedInputOut,
)
from agora.auth.principal import Permission
from agora.mcp.runner import Tool, as_text, dump, tool_call

READ = Permission.READ


async def list_agents(
    ctx: Context,
    category: list[str] | None = None,
    cursor: str | None = None,
    limit: int = 20,
) -> TextContent:
    """Browse available (verified) agents, optionally by category slugs (any of them;
    'uncategorized' = none). Returns the agents (as the API's data); page with `cursor` =
    the id of the last agent you got."""
    async with tool_call(ctx, READ) as call:
        page = await service.cursor_listing(
            call.session,
            cursor=cursor,
            limit=max(1, min(limit, 100)),
            categories=filters.parse_category_values(category),
        )
    return as_text([AgentOut.model_validate(a) for a in page.agents])


async def get_agent(ctx: Context, agent_id: str) -> dict[str, Any]:
    """One agent: description, verification status, price (credits, fee included), tags, its
    current version and its Conformant badge (conformance: passedAt, suiteVersion, or null)."""
    async with tool_call(ctx, READ) as call:
        return dump(AgentDetailOut.model_validate(await service.get_detail(call.session, agent_id)))


async def get_agent_input_schema(ctx: Context, agent_id: str) -> dict[str, Any]:
    """The MIP-003 input schema of an agent: the fields `create_job` expects in input_data."""
    async with tool_call(ctx, READ) as call:
        return dump(await service.get_input_schema(call.session, agent_id))


async def list_categories(ctx: Context) -> TextContent:
    """Every agent category (slugs usable in list_agents), with its number of agents."""
    async with tool_call(ctx, READ) as call:
        counted = await service.counted_categories(call.session)
        return as_text([CategoryOut.model_validate(c) for c in counted])


async def search_agents(
    ctx: Context,
    query: str | None = None,
    sort: str | None = None,
    category: list[str] | None = None,
    favourites: bool = False,
    hired_before: bool = False,
    featured: bool = False,
    conformant: bool = False,
    cursor: str | None = None,
    limit: int = 20,
) -> TextContent:
    """Find available agents. query: text in name, description or tags. sort: relevance
    (needs query), rating (Bayesian average of the stars), popularity (completed jobs, last
    30 days), newest, price (lowest first), featured. favourites / hired_before: only your
    favourite agents / agents you hired before. conformant: only agents holding the
    Conformant badge (they pass Agora's conformance suite). Each agent has `rating` (average, count,
    distribution, score). Page with `cursor` = the previous answer's `nextCursor`."""
    async with tool_call(ctx, READ) as call:
        person = (
            filters.PersonFilters(call.principal.user_id, favourites, hired_before)
            if favourites or hired_before
            else None
        )
        page = await service.cursor_listing(
            call.session,
            cursor=cursor,
            limit=max(1, min(limit, 100)),
            categories=filters.parse_category_values(category),
            q=query,
            sort=sort,
            featured=featured,
            person=person,
            conformant=conformant,
        )
    return as_text(
        {
            "agents": [dump(AgentOut.model_validate(a)) for a in page.agents],
            "total": page.total,
            "nextCursor": page.next_cursor,
        }
    )


async def compare_agents(ctx: Context, agent_ids: list[str]) -> TextContent:
    """Two or three agents side by side: price, rating, p50 duration, failure rate, completed
    jobs in the last 30 days, availability and input fields."""
    async with tool_call(ctx, READ) as call:
        compared = await comparison.compare(call.session, service.parse_compared(agent_ids))
    return as_text([ComparedAgentOut.model_validate(a) for a in compared])


async def search(ctx: Context, query: str) -> TextContent:
    """Agents whose name, description or tags contain every word of `query`."""
    async with tool_call(ctx, READ) as call:
        found = await agent_search.every_word(call.session, query)
    return as_text([AgentOut.model_validate(a) for a in found])


async def fetch(ctx: Context, id: str) -> dict[str, Any]:
    """One agent by id, with its input schema (`inputSchema`)."""
    async with tool_call(ctx, READ) as call:
        listed = await service.get_detail(call.session, id)
        out: dict[str, Any] = dump(AgentOut.model_validate(listed))
    out["inputSchema"] = listed.input_schema
    return out


async def list_saved_inputs(ctx: Context, agent_id: str) -> TextContent:
    """Your saved inputs for an agent (name, inputData, agentVersion: pinned, or null to follow
    the latest compatible version). Hire with one: create_job(saved_input_id=...)."""
    async with tool_call(ctx, READ) as call:
        found = await saved_inputs.of_agent(call.session, call.principal, agent_id)
    return as_text([SavedInputOut.model_validate(s) for s in found])


TOOLS: list[Tool] = [
    list_agents,
    get_agent,
    get_agent_input_schema,
    list_categories,
    search_agents,
    compare_agents,
    search,
    fetch,
    list_saved_inputs,
]
