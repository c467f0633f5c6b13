"""Agent catalogue endpoints.

``GET /v1/agents`` has three shapes, chosen by the credentials presented (DESIGN §3):
none → public page listing (Envelope B); ``Authorization: Bearer`` → cursor listing (Envelope B);
``x-api-key`` → every available agent (Envelope A, key-family errors). Invalid credentials → 401,
never a silent fallback to the public shape.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Query, Request, Response

from agora.agents import service
from agora.agents.schemas import (
    AgentOut,
    CategoryOut,
    ComparedAgentOut,
    InputSchemaOut,
    agent_item,
)
from agora.auth.dependencies import AgentId, SessionDep, authenticate_request, public
from agora.kit import wire
from agora.kit.envelopes import (
    EnvelopeA,
    EnvelopeB,
    MetaB,
    meta_b,
    now_iso,
    written_a,
    written_b,
)
from agora.kit.errors import BadRequest, NotFound
from agora.kit.families import Family, bearer_router, set_family
from agora.models.statuses import AgentStatus

router = bearer_router(tags=["agents"])

_OPTIONAL_AUTH: list[dict[str, list[str]]] = [{}, {"bearerAuth": []}, {"apiKeyHeader": []}]


@router.get(
    "/agents",
    operation_id="listAgents",
    response_model=EnvelopeB[list[AgentOut]] | EnvelopeA[list[AgentOut]],
    openapi_extra={"security": _OPTIONAL_AUTH, "x-agora-errors": [429]},
)
@public
async def list_agents(
    request: Request,
    session: SessionDep,
    status: Annotated[
        str | None, Query(description="Public shape: PENDING, VERIFIED (default), REVOKED, EXPIRED")
    ] = None,
    page: Annotated[int | None, Query(ge=1, le=100_000, description="Public shape: page")] = None,
    limit: Annotated[
        int | None, Query(ge=1, le=100, description="Items per page (default 20)")
    ] = None,
    cursor: Annotated[
        str | None, Query(max_length=100, description="Bearer shape: id of the last item")
    ] = None,
    category: Annotated[
        list[str] | None,
        Query(description="Category slugs, repeated or comma-separated; 'uncategorized' = none"),
    ] = None,
    q: Annotated[
        str | None,
        Query(max_length=200, description="Text search in name, description and tags"),
    ] = None,
    sort: Annotated[
        str | None,
        Query(
            max_length=20,
            description="relevance (needs q), rating (Bayesian average), popularity (completed "
            "jobs, last 30 days), newest, price (lowest first), featured; default: registration",
        ),
    ] = None,
    featured: Annotated[bool, Query(description="Only the operator's featured agents")] = False,
    favourites: Annotated[bool, Query(description="Bearer shape: only your favourites")] = False,
    hired_before: Annotated[
        bool, Query(alias="hiredBefore", description="Bearer shape: only agents you hired before")
    ] = False,
) -> Response:
    """List agents. Without credentials: the public, rate-limited listing. With Bearer: the
    cursor listing of available agents. With x-api-key: every available agent (Envelope A)."""
    if request.headers.get("x-api-key"):
        set_family(request, Family.KEY)
        await authenticate_request(request, session)
        every = await service.available_agents(session)
        timestamp = now_iso()
        return wire.answer(
            written_a([agent_item(a) for a in every], timestamp),
            lambda: EnvelopeA[list[AgentOut]](data=every, timestamp=timestamp),
        )
    slugs = service.parse_category_values(category)
    size = limit or 20
    if request.headers.get("authorization"):
        principal = await authenticate_request(request, session)
        for name, value in (("status", status), ("page", page)):
            if value is not None:
                raise BadRequest.field(name, "only the public listing takes it; page with cursor")
        person = (
            service.PersonFilters(principal.user_id, favourites, hired_before)
            if favourites or hired_before
            else None
        )
        result = await service.cursor_listing(
            session,
            cursor=cursor,
            limit=size,
            categories=slugs,
            q=q,
            sort=sort,
            featured=featured,
            person=person,
        )
        pagination = {
            "cursor": cursor,
            "limit": size,
            "total": result.total,
            "nextCursor": result.next_cursor,
        }
        return _page(result.agents, meta_b(request, pagination))
    if cursor is not None:
        raise BadRequest.field("cursor", "only the authenticated listing pages by cursor")
    for name, given in (("favourites", favourites), ("hiredBefore", hired_before)):
        if given:
            raise BadRequest.field(name, "a person's filter: present your Bearer credentials")
    number = page or 1
    result = await service.public_listing(
        session,
        status=(status or AgentStatus.VERIFIED).upper(),
        page=number,
        limit=size,
        categories=slugs,
        q=q,
        sort=sort,
        featured=featured,
    )
    pagination = {"page": number, "limit": size, "total": result.total, "hasMore": result.has_more}
    return _page(result.agents, meta_b(request, pagination))


def _page(agents: list[service.ListedAgent], meta: MetaB) -> Response:
    """A page of agents in Envelope B, each written by ``agent_item`` (kit/wire.py)."""
    return wire.answer(
        written_b([agent_item(a) for a in agents], meta),
        lambda: EnvelopeB[list[AgentOut]](data=agents, meta=meta),
    )


@router.get(
    "/agents/compare",
    operation_id="compareAgents",
    response_model=EnvelopeB[list[ComparedAgentOut]],
    openapi_extra={"security": [], "x-agora-errors": [429]},
)
@public
async def compare_agents(
    request: Request,
    session: SessionDep,
    ids: Annotated[
        list[str] | None,
        Query(description="1 to 3 agent ids, repeated or comma-separated", max_length=300),
    ] = None,
) -> EnvelopeB[list[ComparedAgentOut]]:
    """Agents side by side: price, rating, p50 duration, failure rate, completed jobs in the last
    30 days, availability (the latest check) and input fields (no authentication)."""
    compared = await service.compare(session, service.parse_compared(ids))
    return EnvelopeB[list[ComparedAgentOut]](data=compared, meta=meta_b(request))


@router.get(
    "/agents/{agentId}",
    operation_id="getAgent",
    response_model=EnvelopeB[AgentOut],
    openapi_extra={"security": [], "x-agora-errors": [429]},
)
@public
async def get_agent(
    agent_id: AgentId, request: Request, session: SessionDep
) -> EnvelopeB[AgentOut]:
    """One agent by id (no authentication)."""
    return EnvelopeB[AgentOut](
        data=await service.get_listed(session, agent_id), meta=meta_b(request)
    )


@router.get(
    "/agents/{agentId}/input-schema",
    operation_id="getAgentInputSchema",
    response_model=EnvelopeB[InputSchemaOut],
    openapi_extra={"security": [], "x-agora-errors": [429]},
)
@public
async def get_agent_input_schema(
    agent_id: AgentId, request: Request, session: SessionDep
) -> EnvelopeB[InputSchemaOut]:
    """The agent's MIP-003 input schema, as last fetched from the agent."""
    agent = await service.get_shown(session, agent_id)
    if agent.input_schema is None:
        raise NotFound(f"Agent {agent_id} has no input schema")
    schema = InputSchemaOut(agentId=str(agent.id), **agent.input_schema)
    return EnvelopeB[InputSchemaOut](data=schema, meta=meta_b(request))


@router.get(
    "/categories",
    operation_id="listCategories",
    response_model=EnvelopeB[list[CategoryOut]],
    openapi_extra={"security": []},
)
@public
async def list_categories(request: Request, session: SessionDep) -> EnvelopeB[list[CategoryOut]]:
    """Every category (slugs usable in the `category` filter)."""
    categories = await service.list_categories(session)
    counted = await service.counted_categories(session, categories)
    return EnvelopeB[list[CategoryOut]](data=counted, meta=meta_b(request))


@router.get(
    "/categories/{idOrSlug}",
    operation_id="getCategory",
    response_model=EnvelopeB[CategoryOut],
    openapi_extra={"security": []},
)
@public
async def get_category(
    idOrSlug: str, request: Request, session: SessionDep
) -> EnvelopeB[CategoryOut]:
    """One category by id or slug, with its number of available agents."""
    category = await service.get_category(session, idOrSlug)
    return EnvelopeB[CategoryOut](data=category, meta=meta_b(request))
