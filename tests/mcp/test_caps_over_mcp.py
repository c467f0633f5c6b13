"""Caps cover every spend (issue 43.2): a member's paid jobs created through MCP count against
their spending cap like the API's, and past it the tool answers the cap's refusal; nothing is
held for the refused job."""

from __future__ import annotations

import httpx2
from fastapi import FastAPI

from agora.accounts import provisioning as identity
from agora.accounts import repository as identity_repo
from agora.kit.db import Database
from tests.billing.test_caps import organization, set_cap, workspace_spend
from tests.conftest import MakeUser
from tests.jobs.helpers import echo, register
from tests.mcp.test_mcp import call, call_error, connect
from tests.support.agents import LoopbackAgents


async def test_mcp_create_job_is_bounded_by_the_members_cap(
    mcp_base: str,
    app: FastAPI,
    client: httpx2.AsyncClient,
    agents_server: LoopbackAgents,
    make_user: MakeUser,
    db: Database,
) -> None:
    agent_id = await register(app, agents_server, echo(), price=2)  # 2.1 with the fee
    owner, _admin, member, ws = await organization(db, make_user, "100")
    capped = await set_cap(client, owner, {"userId": str(member.user_id), "monthlyLimit": 5})
    assert capped.status_code == 200, capped.text
    async with db.transaction() as session:
        row = await identity_repo.user_by_id(session, member.user_id)
        assert row is not None
        key = await identity.create_key(session, user=row, workspace=ws)
    async with connect(mcp_base, "streamable-http", key.plaintext) as session:
        for _ in range(2):
            await call(session, "create_job", agent_id=agent_id, input_data={"text": "hi"})
        refused = await call_error(
            session, "create_job", agent_id=agent_id, input_data={"text": "hi"}
        )
    assert "Spending cap reached: the job costs 2.1 credits" in refused, refused
    jobs, held, spent = await workspace_spend(db, ws.id)
    assert (jobs, held) == (2, 4_200_000)
    assert spent[member.user_id] == 4_200_000
