"""Catalogue operations for admin keys (bearer family): register, verify, revoke, categories."""

from __future__ import annotations

from fastapi import Request

from agora.agents import service
from agora.agents.schemas import AgentOut, AgentRegistration, CategoryCreate, CategoryOut
from agora.auth.dependencies import Admin, AgentId, SessionDep, UnitDep
from agora.kit.envelopes import EnvelopeB, meta_b
from agora.kit.families import bearer_router
from agora.kit.units import Mode, mode
from agora.mip003.client import app_client

router = bearer_router(prefix="/admin", tags=["admin"])


@router.post(
    "/agents",
    status_code=201,
    operation_id="adminRegisterAgent",
    response_model=EnvelopeB[AgentOut],
    openapi_extra={"x-agora-errors": [409]},
)
@mode(Mode.CALLS_OUT)
async def register_agent(
    body: AgentRegistration, request: Request, unit: UnitDep, _admin: Admin
) -> EnvelopeB[AgentOut]:
    """Register an agent: its base URL must answer MIP-003 /availability and /input_schema."""
    probe = await unit.call_out(service.probe(app_client(request), body.baseUrl))
    session = await unit.write()
    agent = await service.register_agent(
        session,
        request.app.state.settings,
        probe,
        name=body.name,
        description=body.description,
        price=body.price,
        categories=body.categories,
        tags=body.tags,
        verify=body.verify,
        is_shown=body.isShown,
    )
    return EnvelopeB[AgentOut](
        data=await service.with_categories_one(session, agent), meta=meta_b(request)
    )


@router.get("/agents/{agentId}", operation_id="adminGetAgent", response_model=EnvelopeB[AgentOut])
async def get_agent(
    agent_id: AgentId, request: Request, session: SessionDep, _admin: Admin
) -> EnvelopeB[AgentOut]:
    """Any agent, whatever its status or visibility."""
    agent = await service.get_any(session, agent_id)
    return EnvelopeB[AgentOut](
        data=await service.with_categories_one(session, agent), meta=meta_b(request)
    )


@router.post(
    "/agents/{agentId}/verify", operation_id="adminVerifyAgent", response_model=EnvelopeB[AgentOut]
)
@mode(Mode.CALLS_OUT)
async def verify_agent(
    agent_id: AgentId, request: Request, unit: UnitDep, _admin: Admin
) -> EnvelopeB[AgentOut]:
    """Check the agent live and mark it VERIFIED for the verification lifetime."""
    base_url = (await service.get_any(await unit.session(), agent_id)).base_url
    probe = await unit.call_out(service.probe(app_client(request), base_url))
    session = await unit.write()
    agent = await service.verify_agent(session, request.app.state.settings, agent_id, probe)
    return EnvelopeB[AgentOut](
        data=await service.with_categories_one(session, agent), meta=meta_b(request)
    )


@router.post(
    "/agents/{agentId}/revoke", operation_id="adminRevokeAgent", response_model=EnvelopeB[AgentOut]
)
async def revoke_agent(
    agent_id: AgentId, request: Request, session: SessionDep, _admin: Admin
) -> EnvelopeB[AgentOut]:
    """Revoke the agent's verification: it leaves the available listings at once."""
    agent = await service.revoke_agent(session, agent_id)
    return EnvelopeB[AgentOut](
        data=await service.with_categories_one(session, agent), meta=meta_b(request)
    )


@router.post(
    "/categories",
    status_code=201,
    operation_id="adminCreateCategory",
    response_model=EnvelopeB[CategoryOut],
    openapi_extra={"x-agora-errors": [409]},
)
async def create_category(
    body: CategoryCreate, request: Request, session: SessionDep, _admin: Admin
) -> EnvelopeB[CategoryOut]:
    """Create a category."""
    category = await service.create_category(
        session, slug=body.slug, name=body.name, description=body.description
    )
    return EnvelopeB[CategoryOut](data=category, meta=meta_b(request))


@router.post(
    "/agents/{agentId}/feature",
    operation_id="adminFeatureAgent",
    response_model=EnvelopeB[AgentOut],
)
async def feature_agent(
    agent_id: AgentId, request: Request, session: SessionDep, _admin: Admin
) -> EnvelopeB[AgentOut]:
    """Feature the agent: `featured=true` lists it, `sort=featured` shows it first."""
    agent = await service.set_featured(session, agent_id, True)
    return EnvelopeB[AgentOut](
        data=await service.with_categories_one(session, agent), meta=meta_b(request)
    )


@router.post(
    "/agents/{agentId}/unfeature",
    operation_id="adminUnfeatureAgent",
    response_model=EnvelopeB[AgentOut],
)
async def unfeature_agent(
    agent_id: AgentId, request: Request, session: SessionDep, _admin: Admin
) -> EnvelopeB[AgentOut]:
    """Stop featuring the agent."""
    agent = await service.set_featured(session, agent_id, False)
    return EnvelopeB[AgentOut](
        data=await service.with_categories_one(session, agent), meta=meta_b(request)
    )
