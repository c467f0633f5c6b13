"""The MCP tool server driven by the official SDK client over streamable HTTP and SSE."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import httpx2
import pytest
from fastapi import FastAPI
from mcp.client.sse import sse_client
from mcp.client.streamable_http import streamable_http_client

from agora.kit.money import to_base
from mcp import ClientSession
from tests.conftest import MakeUser
from tests.jobs.helpers import echo, register, reviewer
from tests.support.agents import LoopbackAgents

TRANSPORTS = ("streamable-http", "sse")


@asynccontextmanager
async def connect(
    base: str, transport: str, key: str | None, headers: dict[str, str] | None = None
) -> AsyncIterator[ClientSession]:
    query = f"?api_key={key}" if key else ""
    if transport == "sse":
        async with (
            sse_client(f"{base}/sse{query}", headers=headers) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            yield session
        return
    async with (
        httpx2.AsyncClient(timeout=30, headers=headers) as http,
        streamable_http_client(f"{base}/mcp{query}", http_client=http) as (read, write),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        yield session


async def call(session: ClientSession, tool: str, **arguments: Any) -> Any:
    result = await session.call_tool(tool, arguments)
    assert not result.is_error, result.content
    text = result.content[0].text  # type: ignore[union-attr]
    return json.loads(text)


async def call_error(session: ClientSession, tool: str, **arguments: Any) -> str:
    result = await session.call_tool(tool, arguments)
    assert result.is_error
    return str(result.content[0].text)  # type: ignore[union-attr]


@pytest.mark.parametrize("transport", TRANSPORTS)
async def test_a_job_from_creation_to_the_history_feed(
    transport: str,
    mcp_base: str,
    app: FastAPI,
    agents_server: LoopbackAgents,
    make_user: MakeUser,
) -> None:
    user = await make_user(credits=to_base(10))
    agent_id = await register(app, agents_server, echo(), price=1)
    async with connect(mcp_base, transport, user.api_key) as session:
        names = {tool.name for tool in (await session.list_tools()).tools}
        assert {
            "list_agents", "get_agent", "get_agent_input_schema", "create_job", "get_job",
            "list_jobs", "wait_for_job", "answer_input_request", "cancel_job", "read_history",
            "list_projects", "create_project", "update_project", "delete_project",
            "assign_to_project", "unassign_from_project", "get_profile", "update_profile",
            "get_credits",
        } <= names  # fmt: skip
        listed = await call(session, "list_agents")
        assert [a["id"] for a in listed] == [agent_id]
        schema = await call(session, "get_agent_input_schema", agent_id=agent_id)
        assert schema["input_data"][0]["id"] == "text"

        created = await call(
            session, "create_job", agent_id=agent_id, input_data={"text": "hello"}, name="Greet"
        )
        assert created["status"] in ("PENDING", "RUNNING")
        done = await call(session, "wait_for_job", job_id=created["id"], timeout_seconds=20)
        assert done["status"] == "COMPLETED"
        assert done["result"] == "HELLO"
        feed = await call(session, "read_history", types="job")
        assert [(i["id"], i["status"], i["credits"]) for i in feed["items"]] == [
            (created["id"], "COMPLETED", 1.05)
        ]
        project = await call(session, "create_project", name="Launch")
        await call(
            session, "assign_to_project", project_id=project["id"], kind="job",
            item_id=created["id"],
        )  # fmt: skip
        feed = await call(session, "read_history", project_id=project["id"])
        assert [i["id"] for i in feed["items"]] == [created["id"]]
        credits = await call(session, "get_credits")
        assert (credits["balance"], credits["held"]) == (10 - 1.05, 0)
        profile = await call(session, "update_profile", name="Via MCP")
        assert profile["name"] == "Via MCP"


async def test_input_requests_are_answered_through_tools(
    mcp_base: str, app: FastAPI, agents_server: LoopbackAgents, make_user: MakeUser
) -> None:
    user = await make_user(credits=to_base(10))
    agent_id = await register(app, agents_server, reviewer(), price=2)
    async with connect(mcp_base, "streamable-http", user.api_key) as session:
        job = await call(session, "create_job", agent_id=agent_id, input_data={"text": "a b c"})
        asked = await call(session, "wait_for_job", job_id=job["id"], timeout_seconds=20)
        assert asked["status"] == "INPUT_REQUIRED"
        request = await call(session, "get_input_request", job_id=job["id"])
        assert [f["id"] for f in request["inputSchema"]["input_data"]] == ["approve", "note"]
        await call(session, "answer_input_request", job_id=job["id"], input_data={"approve": True})
        done = await call(session, "wait_for_job", job_id=job["id"], timeout_seconds=20)
        assert done["status"] == "COMPLETED"
        assert "3 words" in done["result"]


@pytest.mark.parametrize("transport", TRANSPORTS)
async def test_missing_or_bad_keys_are_refused(transport: str, mcp_base: str) -> None:
    for key in (None, "agora_usr_not-a-key"):
        with pytest.raises(Exception) as caught:
            async with connect(mcp_base, transport, key):
                pass
        text = repr(caught.value)
        assert "Authentication required" in text or "401" in text, text
    path = "/sse" if transport == "sse" else "/mcp"
    for params in ({"api_key": "nope"}, {}):
        raw = httpx2.get(f"{mcp_base}{path}", params=params, timeout=5)
        assert raw.status_code == 401
        error = raw.json()["error"]
        assert error["code"] == -32001
        assert error["message"].startswith("Authentication required")
        assert error["data"]["error"] == "Unauthorized"
    refused = httpx2.get(f"{mcp_base}{path}", params={"api_key": "nope"}, timeout=5).json()
    assert refused["error"]["data"]["details"] == [
        {"field": "credentials", "reason": "the API key is not valid"}
    ]


@pytest.mark.parametrize("transport", TRANSPORTS)
async def test_another_workspaces_ids_stay_invisible(
    transport: str,
    mcp_base: str,
    app: FastAPI,
    agents_server: LoopbackAgents,
    make_user: MakeUser,
) -> None:
    owner, stranger = await make_user(credits=to_base(5)), await make_user()
    agent_id = await register(app, agents_server, echo(), price=1)
    async with connect(mcp_base, transport, owner.api_key) as session:
        job = await call(session, "create_job", agent_id=agent_id, input_data={"text": "x"})
        project = await call(session, "create_project", name="Secret")
    async with connect(
        mcp_base, transport, None, headers={"Authorization": f"Bearer {stranger.api_key}"}
    ) as session:
        for tool, args in (
            ("get_job", {"job_id": job["id"]}),
            ("cancel_job", {"job_id": job["id"]}),
            ("get_project", {"project_id": project["id"]}),
            ("delete_project", {"project_id": project["id"]}),
        ):
            message = await call_error(session, tool, **args)
            assert "404 Not Found: " in message, message
        assert (await call(session, "list_jobs")) == []
        assert (await call(session, "read_history"))["items"] == []
        bad = await call_error(session, "create_project", name="")
        assert "400 Invalid request parameters" in bad, bad


async def test_host_checking(
    mcp_base: str, make_user: MakeUser, capsys: pytest.CaptureFixture[str]
) -> None:
    user = await make_user()
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}
    headers = {"accept": "application/json, text/event-stream", "x-api-key": user.api_key}
    async with httpx2.AsyncClient(base_url=mcp_base, timeout=10) as http:
        public = await http.post("/mcp", json=body, headers=headers)  # AGORA_PUBLIC_URL's host
        assert public.status_code == 200, public.text
        assert "create_job" in public.text
        rebinding = await http.post("/mcp", json=body, headers={**headers, "host": "evil.example"})
        assert rebinding.status_code == 421
        sse = await http.get("/sse", headers={**headers, "host": "evil.example:80"})
        assert sse.status_code == 421
    await asyncio.sleep(0.5)  # the server thread logs after it has answered
    assert "unhandled_error" not in capsys.readouterr().err  # refusals, not server errors
