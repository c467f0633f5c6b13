"""Agent catalogue endpoints.

``GET /v1/agents`` has three shapes, chosen by the credentials presented (DESIGN §3):
none → public page listing (Envelope B); ``Authorization: Bearer`` → cursor listing (Envelope B);
``x-api-key`` → every available agent (Envelope A, key-family errors). Invalid credentials → 401,
never a silent fallback to the public shape.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Path, Query, Request, Response
from sqlalchemy.ext.asyncio import AsyncSession

from agora.agents import comparison, filters, saved_inputs, service
from agora.agents.schemas import (
    AgentDetailOut,
    AgentId,
    AgentOut,
    AgentVersionOut,
    CategoryIdOrSlug,
    CategoryOut,
    ComparedAgentOut,
    InputSchemaOut,
    SavedInputCreate,
    SavedInputOut,
    agent_item,
)
from agora.auth.dependencies import (
    JobsWriter,
    Reader,
    SessionDep,
    authenticate_request,
    public,
)
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
from agora.kit.errors import BadRequest
from agora.kit.families import Family, bearer_router, key_router, set_family
from agora.kit.openapi import errors
from agora.models.statuses import AgentStatus

router = bearer_router(tags=["agents"])
# A person's saved inputs (key family: Envelope A, as the jobs they make).
saved_inputs_router = key_router(tags=["agents"])
SavedInputId = Annotated[str, Path(alias="savedInputId", max_length=100)]

_OPTIONAL_AUTH: list[dict[str, list[str]]] = [{}, {"bearerAuth": []}, {"apiKeyHeader": []}]
_PUBLIC = {"security": [], **errors(429)}

# The listing's query parameters (the three shapes share them; docs/agents.md).
Status = Annotated[
    str | None, Query(description="Public shape: PENDING, VERIFIED (default), REVOKED, EXPIRED")
]
PageNumber = Annotated[int | None, Query(ge=1, le=100_000, description="Public shape: page")]
Limit = Annotated[int | None, Query(ge=1, le=100, description="Items per page (default 20)")]
Cursor = Annotated[
    str | None, Query(max_length=100, description="Bearer shape: id of the last item")
]
Categories = Annotated[
    list[str] | None,
    Query(description="Category slugs, repeated or comma-separated; 'uncategorized' = none"),
]
Search = Annotated[
    str | None, Query(max_length=200, description="Text search in name, description and tags")
]
Sort = Annotated[
    str | None,
    Query(
        max_length=20,
        description="relevance (needs q), rating (Bayesian average), popularity (completed "
        "jobs, last 30 days), newest, price (lowest first), featured; default: registration",
    ),
]
Featured = Annotated[bool, Query(description="Only the operator's featured agents")]
Conformant = Annotated[
    bool, Query(description="Only agents holding the Conformant badge (docs/agents.md)")
]
Favourites = Annotated[bool, Query(description="Bearer shape: only your favourites")]
HiredBefore = Annotated[
    bool, Query(alias="hiredBefore", description="Bearer shape: only agents you hired before")
]


@router.get(
    "/agents",
    operation_id="listAgents",
    response_model=EnvelopeB[list[AgentOut]] | EnvelopeA[list[AgentOut]],
    openapi_extra={"security": _OPTIONAL_AUTH, **errors(429)},
)
@public
async def list_agents(
    request: Request,
    session: SessionDep,
    status: Status = None,
    page: PageNumber = None,
    limit: Limit = None,
    cursor: Cursor = None,
    category: Categories = None,
    q: Search = None,
    sort: Sort = None,
    featured: Featured = False,
    conformant: Conformant = False,
    favourites: Favourites = False,
    hired_before: HiredBefore = False,
) -> Response:
    """List agents. Without credentials: the public, rate-limited listing. With Bearer: the
    cursor listing of available agents. With x-api-key: every available agent (Envelope A)."""
    if request.headers.get("x-api-key"):
        return await _every_available(request, session)
    slugs = filters.parse_category_values(category)
    size = limit or 20
    if request.headers.get("authorization"):
        principal = await authenticate_request(request, session)
        for name, value in (("status", status), ("page", page)):
            if value is not None:
                raise BadRequest.field(name, "only the public listing takes it; page with cursor")
        person = (
            filters.PersonFilters(principal.user_id, favourites, hired_before)
            if favourites or hired_before
            else None
        )
        result = await service.cursor_listing(
            session, cursor=cursor, limit=size, categories=slugs, q=q, sort=sort,
            featured=featured, person=person, conformant=conformant,
        )  # fmt: skip
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
        session, status=(status or AgentStatus.VERIFIED).upper(), page=number, limit=size,
        categories=slugs, q=q, sort=sort, featured=featured, conformant=conformant,
    )  # fmt: skip
    pagination = {"page": number, "limit": size, "total": result.total, "hasMore": result.has_more}
    return _page(result.agents, meta_b(request, pagination))


async def _every_available(request: Request, session: AsyncSession) -> Response:
    """The x-api-key shape: every available agent in Envelope A, key-family errors."""
    set_family(request, Family.KEY)
    await authenticate_request(request, session)
    every = await service.available_agents(session)
    timestamp = now_iso()
    return wire.answer(
        written_a([agent_item(a) for a in every], timestamp),
        lambda: EnvelopeA[list[AgentOut]](data=every, timestamp=timestamp),
    )


def _page(agents: list[service.ListedAgent], meta: MetaB) -> Response:
    """A page of agents in Envelope B, each written by ``agent_item`` (kit/wire.py)."""
    return wire.answer(
        written_b([agent_item(a) for a in agents], meta),
        lambda: EnvelopeB[list[AgentOut]](data=agents, meta=meta),
    )


@router.get("/agents/compare", operation_id="compareAgents", openapi_extra=_PUBLIC)
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
    compared = await comparison.compare(session, service.parse_compared(ids))
    return EnvelopeB[list[ComparedAgentOut]](data=compared, meta=meta_b(request))


@router.get("/agents/{agentId}", operation_id="getAgent", openapi_extra=_PUBLIC)
@public
async def get_agent(
    agent_id: AgentId, request: Request, session: SessionDep
) -> EnvelopeB[AgentDetailOut]:
    """One agent by id (no authentication), with its current version and Conformant badge."""
    return EnvelopeB[AgentDetailOut](
        data=await service.get_detail(session, agent_id), meta=meta_b(request)
    )


@router.get("/agents/{agentId}/versions", operation_id="listAgentVersions", openapi_extra=_PUBLIC)
@public
async def list_agent_versions(
    agent_id: AgentId,
    request: Request,
    session: SessionDep,
    page: PageNumber = None,
    limit: Limit = None,
) -> EnvelopeB[list[AgentVersionOut]]:
    """The agent's versions, newest first: number, changelog, created, price and input schema
    (no authentication; docs/developer.md, "Versions")."""
    number, size = page or 1, limit or 20
    found = await service.list_versions(
        session, agent_id, limit=size + 1, offset=(number - 1) * size
    )
    pagination = {"page": number, "limit": size, "hasMore": len(found) > size}
    return EnvelopeB[list[AgentVersionOut]](data=found[:size], meta=meta_b(request, pagination))


@router.get(
    "/agents/{agentId}/input-schema", operation_id="getAgentInputSchema", openapi_extra=_PUBLIC
)
@public
async def get_agent_input_schema(
    agent_id: AgentId, request: Request, session: SessionDep
) -> EnvelopeB[InputSchemaOut]:
    """The agent's MIP-003 input schema, as last fetched from the agent."""
    schema = await service.get_input_schema(session, agent_id)
    return EnvelopeB[InputSchemaOut](data=schema, meta=meta_b(request))


@router.get("/categories", operation_id="listCategories", openapi_extra={"security": []})
@public
async def list_categories(request: Request, session: SessionDep) -> EnvelopeB[list[CategoryOut]]:
    """Every category (slugs usable in the `category` filter)."""
    counted = await service.counted_categories(session)
    return EnvelopeB[list[CategoryOut]](data=counted, meta=meta_b(request))


@router.get("/categories/{idOrSlug}", operation_id="getCategory", openapi_extra={"security": []})
@public
async def get_category(
    id_or_slug: CategoryIdOrSlug, request: Request, session: SessionDep
) -> EnvelopeB[CategoryOut]:
    """One category by id or slug, with its number of available agents."""
    category = await service.get_category(session, id_or_slug)
    return EnvelopeB[CategoryOut](data=category, meta=meta_b(request))


@saved_inputs_router.get("/agents/{agentId}/saved-inputs", operation_id="listSavedInputs")
async def list_saved_inputs(
    agent_id: AgentId, session: SessionDep, principal: Reader
) -> EnvelopeA[list[SavedInputOut]]:
    """Your saved inputs for the agent in this workspace, newest first (at most 100)."""
    found = await saved_inputs.of_agent(session, principal, agent_id)
    return EnvelopeA[list[SavedInputOut]](data=[SavedInputOut.model_validate(s) for s in found])


@saved_inputs_router.post(
    "/agents/{agentId}/saved-inputs",
    status_code=201,
    operation_id="createSavedInput",
    openapi_extra=errors(409),
)
async def create_saved_input(
    agent_id: AgentId, body: SavedInputCreate, session: SessionDep, principal: JobsWriter
) -> EnvelopeA[SavedInputOut]:
    """Save a named input for the agent (checked as the hire form checks it), pinned to a
    version or following the latest compatible one. Use it from the hire form, a schedule
    (`savedInputId`) or MCP's `create_job`."""
    saved = await saved_inputs.create(
        session, principal, agent_id, name=body.name, input_data=body.inputData,
        agent_version=body.agentVersion,
    )  # fmt: skip
    return EnvelopeA[SavedInputOut](data=SavedInputOut.model_validate(saved))


@saved_inputs_router.delete(
    "/agents/{agentId}/saved-inputs/{savedInputId}", operation_id="deleteSavedInput"
)
async def delete_saved_input(
    agent_id: AgentId, saved_input_id: SavedInputId, session: SessionDep, principal: JobsWriter
) -> EnvelopeA[SavedInputOut]:
    """Delete one of your saved inputs (schedules made from it keep their own copy)."""
    saved = await saved_inputs.delete(session, principal, agent_id, saved_input_id)
    return EnvelopeA[SavedInputOut](data=SavedInputOut.model_validate(saved))
