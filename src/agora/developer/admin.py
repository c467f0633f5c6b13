"""Admin review of listed agents (bearer family): the queue, approve, reject, override."""

from __future__ import annotations

from typing import Annotated

from fastapi import Query, Request

from agora.auth.dependencies import (
    Admin,
    AgentId,
    SessionDep,
    SettingsDep,
    UnitDep,
)
from agora.developer import service
from agora.developer.schemas import AdminAgentOut, AdminOverride, RejectDecision, ReviewDecision
from agora.kit.envelopes import EnvelopeB, meta_b
from agora.kit.families import bearer_router
from agora.kit.pagination import PageDep
from agora.kit.units import Mode, mode
from agora.mip003.client import app_client

router = bearer_router(prefix="/admin", tags=["admin"])


@router.get(
    "/agents", operation_id="adminListAgents", response_model=EnvelopeB[list[AdminAgentOut]]
)
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
        data=await service.listed(session, agents), meta=meta_b(request, params.meta(total))
    )


@router.post(
    "/agents/{agentId}/approve",
    operation_id="adminApproveAgent",
    response_model=EnvelopeB[AdminAgentOut],
    openapi_extra={"x-agora-errors": [409]},
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
    base_url = (await service.get_any(await unit.session(), agent_id)).base_url
    checked = await unit.call_out(service.probe_for_review(app_client(request), agent_id, base_url))
    session = await unit.write()
    note = body.reason if body else ""
    agent = await service.approve(session, settings, agent_id, checked, note)
    return EnvelopeB[AdminAgentOut](
        data=await service.listed_one(session, agent), meta=meta_b(request)
    )


@router.post(
    "/agents/{agentId}/reject",
    operation_id="adminRejectAgent",
    response_model=EnvelopeB[AdminAgentOut],
    openapi_extra={"x-agora-errors": [409]},
)
async def reject_agent(
    agent_id: AgentId, body: RejectDecision, request: Request, session: SessionDep, _admin: Admin
) -> EnvelopeB[AdminAgentOut]:
    """Reject (or delist) the agent with a reason its developer sees."""
    agent = await service.reject(session, agent_id, body.reason)
    return EnvelopeB[AdminAgentOut](
        data=await service.listed_one(session, agent), meta=meta_b(request)
    )


@router.patch(
    "/agents/{agentId}/override",
    operation_id="adminOverrideAgent",
    response_model=EnvelopeB[AdminAgentOut],
)
async def override_agent(
    agent_id: AgentId, body: AdminOverride, request: Request, session: SessionDep, _admin: Admin
) -> EnvelopeB[AdminAgentOut]:
    """Override the published name, description, tags, image or visibility (`null` clears an
    override). Overrides survive developer edits, re-probes and registry re-imports."""
    given = body.model_dump(exclude_unset=True)
    agent = await service.override(session, agent_id, given)
    return EnvelopeB[AdminAgentOut](
        data=await service.listed_one(session, agent), meta=meta_b(request)
    )
