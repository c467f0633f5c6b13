"""Catalogue operations for admin keys (bearer family): register, verify, revoke, categories."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Request

from agora.agents import service
from agora.agents.schemas import AgentOut, AgentRegistration, CategoryCreate, CategoryOut
from agora.auth.dependencies import SessionDep, require
from agora.auth.principal import Permission, Principal
from agora.kit.envelopes import EnvelopeB, envelope_b
from agora.kit.families import bearer_router
from agora.mip003.client import Mip003Client

router = bearer_router(prefix="/admin", tags=["admin"])
Admin = Annotated[Principal, require(Permission.ADMIN)]


def _client(request: Request) -> Mip003Client:
    client: Mip003Client = request.app.state.agent_client
    return client


@router.post(
    "/agents",
    status_code=201,
    operation_id="adminRegisterAgent",
    response_model=EnvelopeB[AgentOut],
    openapi_extra={"x-agora-errors": [409]},
)
async def register_agent(
    body: AgentRegistration, request: Request, session: SessionDep, _admin: Admin
) -> dict[str, Any]:
    """Register an agent: its base URL must answer MIP-003 /availability and /input_schema."""
    agent = await service.register_agent(
        session,
        _client(request),
        request.app.state.settings,
        base_url=body.baseUrl,
        name=body.name,
        description=body.description,
        price=body.price,
        categories=body.categories,
        tags=body.tags,
        verify=body.verify,
        is_shown=body.isShown,
    )
    return envelope_b(request, await service.render_one(session, agent))


@router.get("/agents/{agentId}", operation_id="adminGetAgent", response_model=EnvelopeB[AgentOut])
async def get_agent(
    agentId: str, request: Request, session: SessionDep, _admin: Admin
) -> dict[str, Any]:
    """Any agent, whatever its status or visibility."""
    agent = await service.get_any(session, agentId)
    return envelope_b(request, await service.render_one(session, agent))


@router.post(
    "/agents/{agentId}/verify", operation_id="adminVerifyAgent", response_model=EnvelopeB[AgentOut]
)
async def verify_agent(
    agentId: str, request: Request, session: SessionDep, _admin: Admin
) -> dict[str, Any]:
    """Check the agent live and mark it VERIFIED for the verification lifetime."""
    agent = await service.verify_agent(
        session, _client(request), request.app.state.settings, agentId
    )
    return envelope_b(request, await service.render_one(session, agent))


@router.post(
    "/agents/{agentId}/revoke", operation_id="adminRevokeAgent", response_model=EnvelopeB[AgentOut]
)
async def revoke_agent(
    agentId: str, request: Request, session: SessionDep, _admin: Admin
) -> dict[str, Any]:
    """Revoke the agent's verification: it leaves the available listings at once."""
    agent = await service.revoke_agent(session, agentId)
    return envelope_b(request, await service.render_one(session, agent))


@router.post(
    "/categories",
    status_code=201,
    operation_id="adminCreateCategory",
    response_model=EnvelopeB[CategoryOut],
    openapi_extra={"x-agora-errors": [409]},
)
async def create_category(
    body: CategoryCreate, request: Request, session: SessionDep, _admin: Admin
) -> dict[str, Any]:
    """Create a category."""
    category = await service.create_category(
        session, slug=body.slug, name=body.name, description=body.description
    )
    return envelope_b(request, CategoryOut.of(category))
