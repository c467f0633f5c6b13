"""MCP: ``list_saved_inputs`` and ``create_job(saved_input_id=...)`` (docs/mcp.md): a person's
saved input hires its agent with its input at its version; another person's id is not found."""

from __future__ import annotations

import httpx2
from fastapi import FastAPI

from agora.kit.money import to_base
from tests.conftest import MakeUser
from tests.jobs.helpers import echo, register
from tests.mcp.test_mcp import call, call_error, connect
from tests.support.agents import LoopbackAgents


async def test_create_job_from_a_saved_input(
    mcp_base: str,
    app: FastAPI,
    client: httpx2.AsyncClient,
    agents_server: LoopbackAgents,
    make_user: MakeUser,
) -> None:
    alice, bob = await make_user(credits=to_base(10)), await make_user(credits=to_base(10))
    agent_id = await register(app, agents_server, echo())
    saved = await client.post(
        f"/v1/agents/{agent_id}/saved-inputs",
        json={"name": "Quiet", "inputData": {"text": "Hello There", "mode": "lower"}},
        headers=alice.key_headers,
    )
    assert saved.status_code == 201, saved.text
    saved_id = saved.json()["data"]["id"]
    async with connect(mcp_base, "streamable-http", alice.api_key) as session:
        listed = await call(session, "list_saved_inputs", agent_id=agent_id)
        assert [(s["id"], s["agentVersion"]) for s in listed] == [(saved_id, None)]
        job = await call(session, "create_job", saved_input_id=saved_id)
        assert job["agentId"] == agent_id
        assert job["agentVersion"] == 1
        assert '"text": "Hello There"' in job["input"]
        both = await call_error(
            session, "create_job", saved_input_id=saved_id, input_data={"text": "x"}
        )
        assert "input_data" in both
    async with connect(mcp_base, "streamable-http", bob.api_key) as session:
        assert await call(session, "list_saved_inputs", agent_id=agent_id) == []
        stolen = await call_error(session, "create_job", saved_input_id=saved_id)
        assert "not found" in stolen.lower()
