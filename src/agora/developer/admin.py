"""Admin review of listed agents (bearer family): the queue, approve, reject, override."""

from __future__ import annotations

from typing import Annotated

from fastapi import Query, Request
from sqlalchemy.ext.asyncio import AsyncSession

from agora.a2a.client import app_client as a2a_client
from agora.auth.dependencies import Admin, SessionDep, SettingsDep, UnitDep
from agora.developer import service
from agora.developer.listings import listed, listed_one
from agora.developer.schemas import (
    AdminAgentOut,
    AdminOverride,
    AgentId,
    RejectDecision,
    ReviewDecision,
)
from agora.kit.envelopes import EnvelopeB, meta_b
from agora.kit.families import bearer_router
from agora.kit.openapi import errors
from agora.kit.pagination import PageDep
from agora.kit.units import Mode, mode
from agora.mip003.client import app_client
from agora.models import Agent

router = bearer_router(prefix="/admin", tags=["admin"])


async def _one(request: Request, session: AsyncSession, agent: Agent) -> EnvelopeB[AdminAgentOut]:
    """The answer of every route that decides on one agent: its record as an operator sees it."""
    return EnvelopeB[AdminAgentOut](data=await listed_one(session, agent), meta=meta_b(request))


@router.get("/agents", operation_id="adminListAgents")
async def list_agents(
    request: Request,
    session: SessionDep,
    _admin: Admin,
    params: PageDep,
    status: Annotated[
        str | None, Query(max_length=20, description="PENDING, VERIFIED, REVOKED, EXPIRED")
    ] = None,
    review: Annotated[
        str | None,
        Query(max_length=20, description="pending, approved, rejected, withdrawn"),
    ] = None,
) -> EnvelopeB[list[AdminAgentOut]]:
    """Every agent, hidden or not; `?status=PENDING` is the review queue."""
    agents, total = await service.admin_list(session, status=status, review=review, params=params)
    return EnvelopeB[list[AdminAgentOut]](
        data=await listed(session, agents), meta=meta_b(request, params.meta(total))
    )


@router.post(
    "/agents/{agentId}/approve", operation_id="adminApproveAgent", openapi_extra=errors(409)
)
@mode(Mode.CALLS_OUT)
async def approve_agent(
    agent_id: AgentId,
    request: Request,
    unit: UnitDep,
    settings: SettingsDep,
    _admin: Admin,
    body: ReviewDecision | None = None,
) -> EnvelopeB[AdminAgentOut]:
    """Check the agent live, then verify and list it; the note is shown to its developer."""
    note = body.reason if body else ""
    client = app_client(request)
    agent = await service.probe_and_approve(
        unit, settings, client, agent_id, note, a2a=a2a_client(request)
    )
    return await _one(request, await unit.write(), agent)


@router.post("/agents/{agentId}/reject", operation_id="adminRejectAgent", openapi_extra=errors(409))
async def reject_agent(
    agent_id: AgentId, body: RejectDecision, request: Request, session: SessionDep, _admin: Admin
) -> EnvelopeB[AdminAgentOut]:
    """Reject (or delist) the agent with a reason its developer sees."""
    return await _one(request, session, await service.reject(session, agent_id, body.reason))


@router.patch("/agents/{agentId}/override", operation_id="adminOverrideAgent")
async def override_agent(
    agent_id: AgentId, body: AdminOverride, request: Request, session: SessionDep, _admin: Admin
) -> EnvelopeB[AdminAgentOut]:
    """Override the published name, description, tags, image or visibility (`null` clears an
    override). Overrides survive developer edits, re-probes and registry re-imports."""
    given = body.model_dump(exclude_unset=True)
    return await _one(request, session, await service.override(session, agent_id, given))
