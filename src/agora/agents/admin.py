"""Catalogue operations for admin keys (bearer family): register, verify, revoke, feature,
categories."""

from __future__ import annotations

from fastapi import Request
from sqlalchemy.ext.asyncio import AsyncSession

from agora.agents import service
from agora.agents.schemas import AgentId, AgentOut, AgentRegistration, CategoryCreate, CategoryOut
from agora.auth.dependencies import Admin, SessionDep, SettingsDep, UnitDep
from agora.kit.envelopes import EnvelopeB, meta_b
from agora.kit.families import bearer_router
from agora.kit.openapi import errors
from agora.kit.units import Mode, mode
from agora.mip003.client import app_client
from agora.models import Agent

router = bearer_router(prefix="/admin", tags=["admin"])


async def _one(request: Request, session: AsyncSession, agent: Agent) -> EnvelopeB[AgentOut]:
    """The answer of every route that returns one agent: its catalogue record."""
    return EnvelopeB[AgentOut](
        data=await service.with_categories_one(session, agent), meta=meta_b(request)
    )


@router.post(
    "/agents", status_code=201, operation_id="adminRegisterAgent", openapi_extra=errors(409)
)
@mode(Mode.CALLS_OUT)
async def register_agent(
    body: AgentRegistration, request: Request, unit: UnitDep, settings: SettingsDep, _admin: Admin
) -> EnvelopeB[AgentOut]:
    """Register an agent: its base URL must answer MIP-003 /availability and /input_schema."""
    agent = await service.probe_and_register(
        unit, settings, app_client(request), body.baseUrl, name=body.name,
        description=body.description, price=body.price, categories=body.categories,
        tags=body.tags, verify=body.verify, is_shown=body.isShown,
    )  # fmt: skip
    return await _one(request, await unit.write(), agent)


@router.get("/agents/{agentId}", operation_id="adminGetAgent")
async def get_agent(
    agent_id: AgentId, request: Request, session: SessionDep, _admin: Admin
) -> EnvelopeB[AgentOut]:
    """Any agent, whatever its status or visibility."""
    return await _one(request, session, await service.get_any(session, agent_id))


@router.post("/agents/{agentId}/verify", operation_id="adminVerifyAgent")
@mode(Mode.CALLS_OUT)
async def verify_agent(
    agent_id: AgentId, request: Request, unit: UnitDep, settings: SettingsDep, _admin: Admin
) -> EnvelopeB[AgentOut]:
    """Check the agent live and mark it VERIFIED for the verification lifetime."""
    agent = await service.probe_and_verify(unit, settings, app_client(request), agent_id)
    return await _one(request, await unit.write(), agent)


@router.post("/agents/{agentId}/revoke", operation_id="adminRevokeAgent")
async def revoke_agent(
    agent_id: AgentId, request: Request, session: SessionDep, _admin: Admin
) -> EnvelopeB[AgentOut]:
    """Revoke the agent's verification: it leaves the available listings at once."""
    return await _one(request, session, await service.revoke_agent(session, agent_id))


@router.post(
    "/categories", status_code=201, operation_id="adminCreateCategory", openapi_extra=errors(409)
)
async def create_category(
    body: CategoryCreate, request: Request, session: SessionDep, _admin: Admin
) -> EnvelopeB[CategoryOut]:
    """Create a category."""
    category = await service.create_category(
        session, slug=body.slug, name=body.name, description=body.description
    )
    return EnvelopeB[CategoryOut](data=category, meta=meta_b(request))


@router.post("/agents/{agentId}/feature", operation_id="adminFeatureAgent")
async def feature_agent(
    agent_id: AgentId, request: Request, session: SessionDep, _admin: Admin
) -> EnvelopeB[AgentOut]:
    """Feature the agent: `featured=true` lists it, `sort=featured` shows it first."""
    return await _one(request, session, await service.set_featured(session, agent_id, True))


@router.post("/agents/{agentId}/unfeature", operation_id="adminUnfeatureAgent")
async def unfeature_agent(
    agent_id: AgentId, request: Request, session: SessionDep, _admin: Admin
) -> EnvelopeB[AgentOut]:
    """Stop featuring the agent."""
    return await _one(request, session, await service.set_featured(session, agent_id, False))
