"""Developer listings (bearer family): a signed-in user lists their own agents.

Submissions enter PENDING and hidden until an admin approves them (developer/admin.py). Other
users' agents answer 404. Endpoints that call the agent are CALLS_OUT routes: they read in the
read phase, probe with no transaction open (``unit.call_out``), then write (``unit.write()``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from fastapi import Request

from agora.auth.dependencies import (
    AgentId,
    ProfileWriter,
    Reader,
    SessionDep,
    SettingsDep,
    UnitDep,
)
from agora.developer import service
from agora.developer.schemas import (
    AgentSubmission,
    AgentUpdate,
    DeveloperAgentOut,
    DeveloperStatsOut,
)
from agora.kit.envelopes import EnvelopeB, meta_b
from agora.kit.families import bearer_router
from agora.kit.fields import patch_fields
from agora.kit.pagination import PageDep
from agora.kit.units import Mode, mode
from agora.mip003.client import app_client

if TYPE_CHECKING:
    from agora.models import Agent

router = bearer_router(prefix="/developer", tags=["developer"])


async def _one(request: Request, session: SessionDep, agent: Agent) -> EnvelopeB[DeveloperAgentOut]:
    """The answer of every route that returns one of your agents: its listing."""
    return EnvelopeB[DeveloperAgentOut](
        data=await service.listed_one(session, agent), meta=meta_b(request)
    )


@router.post(
    "/agents",
    status_code=201,
    operation_id="developerSubmitAgent",
    response_model=EnvelopeB[DeveloperAgentOut],
    openapi_extra={"x-agora-errors": [409]},
)
@mode(Mode.CALLS_OUT)
async def submit_agent(
    body: AgentSubmission,
    request: Request,
    unit: UnitDep,
    settings: SettingsDep,
    principal: ProfileWriter,
) -> EnvelopeB[DeveloperAgentOut]:
    """Submit an agent: its base URL must answer MIP-003 /availability and /input_schema. It
    enters PENDING, not listed, until an admin approves it."""
    await service.ensure_room(await unit.session(), principal)
    checked = await unit.call_out(service.probe(app_client(request), body.baseUrl))
    session = await unit.write()
    agent = await service.submit(session, principal, settings, body.model_dump(), checked)
    return await _one(request, session, agent)


@router.get(
    "/agents",
    operation_id="developerListAgents",
    response_model=EnvelopeB[list[DeveloperAgentOut]],
)
async def list_agents(
    request: Request, session: SessionDep, principal: Reader, params: PageDep
) -> EnvelopeB[list[DeveloperAgentOut]]:
    """Your agents (and your organization's, in its workspace), whatever their status."""
    agents, total = await service.list_owned(session, principal, params)
    return EnvelopeB[list[DeveloperAgentOut]](
        data=await service.listed(session, agents), meta=meta_b(request, params.meta(total))
    )


@router.get(
    "/agents/{agentId}",
    operation_id="developerGetAgent",
    response_model=EnvelopeB[DeveloperAgentOut],
)
async def get_agent(
    agent_id: AgentId, request: Request, session: SessionDep, principal: Reader
) -> EnvelopeB[DeveloperAgentOut]:
    """One of your agents, with its review state and note."""
    agent = await service.get_owned(session, principal, agent_id)
    return await _one(request, session, agent)


@router.patch(
    "/agents/{agentId}",
    operation_id="developerUpdateAgent",
    response_model=EnvelopeB[DeveloperAgentOut],
    openapi_extra={"x-agora-errors": [409]},
)
@mode(Mode.CALLS_OUT)
async def update_agent(
    agent_id: AgentId,
    body: AgentUpdate,
    request: Request,
    unit: UnitDep,
    settings: SettingsDep,
    principal: ProfileWriter,
) -> EnvelopeB[DeveloperAgentOut]:
    """Edit your agent. A new baseUrl (checked live) or price sends a verified agent back to
    review; text edits do not."""
    service.require_developer(principal)
    given = patch_fields(body)
    checked = None
    if "baseUrl" in given:
        url = await service.changed_base_url(
            await unit.session(), principal, agent_id, given["baseUrl"]
        )
        if url is not None:
            checked = await unit.call_out(service.probe(app_client(request), url))
    session = await unit.write()
    agent = await service.update(session, principal, settings, agent_id, given, checked)
    return await _one(request, session, agent)


@router.delete(
    "/agents/{agentId}",
    operation_id="developerWithdrawAgent",
    response_model=EnvelopeB[DeveloperAgentOut],
)
async def withdraw_agent(
    agent_id: AgentId, request: Request, session: SessionDep, principal: ProfileWriter
) -> EnvelopeB[DeveloperAgentOut]:
    """Withdraw your agent: it leaves the catalogue at once (REVOKED); its record and stats
    stay readable."""
    agent = await service.withdraw(session, principal, agent_id)
    return await _one(request, session, agent)


@router.get(
    "/agents/{agentId}/stats",
    operation_id="developerAgentStats",
    response_model=EnvelopeB[DeveloperStatsOut],
)
async def agent_stats(
    agent_id: AgentId, request: Request, session: SessionDep, principal: Reader
) -> EnvelopeB[DeveloperStatsOut]:
    """Status and review note, availability history, jobs run, failure rate, p50 duration,
    credits earned and the last errors Agora saw from the agent."""
    return EnvelopeB[DeveloperStatsOut](
        data=await service.stats(session, principal, agent_id), meta=meta_b(request)
    )
