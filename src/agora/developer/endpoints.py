"""Developer listings (bearer family): a signed-in user lists their own agents.

Submissions enter PENDING and hidden until an admin approves them (developer/admin.py). Other
users' agents answer 404. Endpoints that call the agent are CALLS_OUT routes handing their unit to
the use case (``probe_and_submit``, ``probe_and_update``), which reads, checks the agent with no
transaction open, then writes.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Path, Request
from sqlalchemy.ext.asyncio import AsyncSession
from starlette.responses import Response

from agora.a2a.client import app_client as a2a_client
from agora.auth.dependencies import ProfileWriter, Reader, SessionDep, SettingsDep, UnitDep
from agora.developer import earnings, service
from agora.developer.exports import statement_csv
from agora.developer.listings import listed, listed_one
from agora.developer.schemas import (
    A2aAgentSubmission,
    AgentId,
    AgentSubmission,
    AgentUpdate,
    DeveloperAgentOut,
    DeveloperStatsOut,
    EarningsOut,
    StatementOut,
)
from agora.developer.stats import stats
from agora.kit.csvexport import CSV_ANSWER
from agora.kit.envelopes import EnvelopeB, meta_b
from agora.kit.families import bearer_router
from agora.kit.fields import patch_fields
from agora.kit.openapi import errors
from agora.kit.pagination import PageDep
from agora.kit.units import Mode, mode
from agora.mip003.client import app_client
from agora.models import Agent

router = bearer_router(prefix="/developer", tags=["developer"])


async def _one(
    request: Request, session: AsyncSession, agent: Agent
) -> EnvelopeB[DeveloperAgentOut]:
    """The answer of every route that returns one of your agents: its listing."""
    return EnvelopeB[DeveloperAgentOut](data=await listed_one(session, agent), meta=meta_b(request))


@router.post(
    "/agents", status_code=201, operation_id="developerSubmitAgent", openapi_extra=errors(409)
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
    agent = await service.probe_and_submit(
        unit, principal, settings, body.model_dump(), app_client(request)
    )
    return await _one(request, await unit.write(), agent)


@router.post(
    "/agents/a2a",
    status_code=201,
    operation_id="developerSubmitA2aAgent",
    openapi_extra=errors(409),
)
@mode(Mode.CALLS_OUT)
async def submit_a2a_agent(
    body: A2aAgentSubmission,
    request: Request,
    unit: UnitDep,
    settings: SettingsDep,
    principal: ProfileWriter,
) -> EnvelopeB[DeveloperAgentOut]:
    """Submit an A2A agent by its Agent Card URL (docs/a2a.md): the card is read and checked
    live; the agent enters PENDING, not listed, until an admin approves it."""
    agent = await service.read_card_and_submit(
        unit, principal, settings, body.model_dump(exclude_none=True), a2a_client(request)
    )
    return await _one(request, await unit.write(), agent)


@router.get("/agents", operation_id="developerListAgents")
async def list_agents(
    request: Request, session: SessionDep, principal: Reader, params: PageDep
) -> EnvelopeB[list[DeveloperAgentOut]]:
    """Your agents (and your organization's, in its workspace), whatever their status."""
    agents, total = await service.list_owned(session, principal, params)
    return EnvelopeB[list[DeveloperAgentOut]](
        data=await listed(session, agents), meta=meta_b(request, params.meta(total))
    )


@router.get("/agents/{agentId}", operation_id="developerGetAgent")
async def get_agent(
    agent_id: AgentId, request: Request, session: SessionDep, principal: Reader
) -> EnvelopeB[DeveloperAgentOut]:
    """One of your agents, with its review state and note."""
    return await _one(request, session, await service.get_owned(session, principal, agent_id))


@router.patch("/agents/{agentId}", operation_id="developerUpdateAgent", openapi_extra=errors(409))
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
    client = app_client(request)
    agent = await service.probe_and_update(unit, principal, settings, agent_id, given, client)
    return await _one(request, await unit.write(), agent)


@router.delete("/agents/{agentId}", operation_id="developerWithdrawAgent")
async def withdraw_agent(
    agent_id: AgentId, request: Request, session: SessionDep, principal: ProfileWriter
) -> EnvelopeB[DeveloperAgentOut]:
    """Withdraw your agent: it leaves the catalogue at once (REVOKED); its record and stats
    stay readable."""
    return await _one(request, session, await service.withdraw(session, principal, agent_id))


@router.get("/agents/{agentId}/stats", operation_id="developerAgentStats")
async def agent_stats(
    agent_id: AgentId, request: Request, session: SessionDep, principal: Reader
) -> EnvelopeB[DeveloperStatsOut]:
    """Status and review note, availability history, jobs run, failure rate, p50 duration,
    credits earned and the last errors Agora saw from the agent."""
    return EnvelopeB[DeveloperStatsOut](
        data=await stats(session, principal, agent_id), meta=meta_b(request)
    )


Period = Annotated[str, Path(max_length=7, description="A UTC month, YYYY-MM")]


@router.get("/earnings", operation_id="developerEarnings")
async def get_earnings(
    request: Request, session: SessionDep, settings: SettingsDep, principal: Reader
) -> EnvelopeB[EarningsOut]:
    """Your earnings (your organization's, in its workspace): per currency held back (pending),
    payable (less what was paid out) and in all, per agent; the payouts made and the state of
    the Stripe account they go to (`payoutAccount`, in a word and in words)."""
    return EnvelopeB[EarningsOut](
        data=await earnings.earnings(session, principal, settings), meta=meta_b(request)
    )


@router.get("/earnings/statements/{period}", operation_id="developerEarningsStatement")
async def get_statement(
    period: Period, request: Request, session: SessionDep, principal: Reader
) -> EnvelopeB[StatementOut]:
    """A month's statement (UTC): per agent the earnings, refunds, marketplace fees and net;
    the payouts made that month."""
    return EnvelopeB[StatementOut](
        data=await earnings.statement(session, principal, period), meta=meta_b(request)
    )


@router.get(
    "/earnings/statements/{period}/csv",
    operation_id="developerEarningsStatementCsv",
    response_class=Response,
    responses=CSV_ANSWER,
)
async def get_statement_csv(period: Period, session: SessionDep, principal: Reader) -> Response:
    """A month's statement as CSV, one line per earnings entry (formula-guarded cells)."""
    found = await earnings.statement_rows(session, principal, period)
    return statement_csv(found)
