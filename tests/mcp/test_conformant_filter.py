"""MCP ``search_agents(conformant=true)``: only listings holding the Conformant badge (their
latest conformance run left them certified; docs/agents.md, "Conformant badge")."""

from __future__ import annotations

import uuid

from fastapi import FastAPI

from agora.conformance import checks
from agora.conformance.checks import CheckResult, Outcome
from agora.developer import certification
from agora.models.statuses import AgentCheckKind
from tests.conftest import MakeUser
from tests.jobs.helpers import echo, register
from tests.mcp.test_mcp import call, connect
from tests.support.agents import LoopbackAgents


async def test_search_agents_filters_by_the_badge(
    mcp_base: str, app: FastAPI, agents_server: LoopbackAgents, make_user: MakeUser
) -> None:
    user = await make_user()
    certified = await register(app, agents_server, echo())
    failing = await register(app, agents_server, echo())
    for agent_id, outcome in ((certified, Outcome.PASSED), (failing, Outcome.FAILED)):
        results = [
            CheckResult(checks.AVAILABILITY, Outcome.PASSED),
            CheckResult(checks.UNKNOWN_JOB, outcome),
        ]
        async with app.state.db.transaction() as session:
            await certification.record(
                session, app.state.settings, uuid.UUID(agent_id), AgentCheckKind.PERIODIC, results
            )
    async with connect(mcp_base, "streamable-http", user.api_key) as session:
        every = await call(session, "search_agents")
        assert {certified, failing} <= {a["id"] for a in every["agents"]}
        found = await call(session, "search_agents", conformant=True)
        assert [a["id"] for a in found["agents"]] == [certified]
