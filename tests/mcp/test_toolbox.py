"""A person's MCP toolbox through the official SDK client: their favourites and the agents they
added to their assistant are tools of their own (``hire_<slug>``) with typed schemas; calling
one hires the agent as ``create_job`` does; adding a favourite sends
``notifications/tools/list_changed`` to their connected (SSE) session, not to anyone else's.
Also the exports, result and upload tools."""

from __future__ import annotations

import asyncio
import base64
import csv
import io
import json
import uuid
from typing import Any

import httpx2
from fastapi import FastAPI
from mcp.client.sse import sse_client
from mcp.types import ToolListChangedNotification

from agora.files import service as files_service
from agora.kit.money import to_base
from agora.settings import Settings
from mcp import ClientSession
from tests.conftest import MakeUser
from tests.jobs.helpers import echo, register, reviewer
from tests.mcp.test_mcp import call, call_error, connect
from tests.support.agents import LoopbackAgents
from tests.support.files import PNG

RICH_SCHEMA: dict[str, Any] = {
    "input_data": [
        {"id": "topic", "type": "string", "name": "Topic",
         "validations": [{"validation": "min", "value": "2"},
                         {"validation": "max", "value": "80"}]},
        {"id": "count", "type": "number", "name": "Count",
         "validations": [{"validation": "min", "value": "1"}, {"validation": "max", "value": "5"},
                         {"validation": "format", "value": "integer"}]},
        {"id": "tone", "type": "option", "name": "Tone",
         "data": {"values": ["plain", "formal"]},
         "validations": [{"validation": "optional", "value": "true"}]},
        {"id": "contact", "type": "email", "name": "Contact",
         "validations": [{"validation": "optional", "value": "true"}]},
        {"id": "urgent", "type": "boolean", "name": "Urgent",
         "validations": [{"validation": "optional", "value": "true"}]},
    ]
}  # fmt: skip


async def _tools(session: ClientSession) -> dict[str, Any]:
    return {tool.name: tool for tool in (await session.list_tools()).tools}


async def test_favourites_and_assistant_picks_are_typed_tools_that_hire(
    mcp_base: str, app: FastAPI, agents_server: LoopbackAgents, make_user: MakeUser
) -> None:
    user = await make_user(credits=to_base(10))
    other = await make_user(credits=to_base(10))
    rich = await register(
        app, agents_server, echo(name="Brief Writer!", input_schema=RICH_SCHEMA), price=2
    )
    twin = await register(app, agents_server, echo(name="brief writer"), price=0)
    await register(app, agents_server, reviewer())
    headers = {"Authorization": f"Bearer {user.api_key}"}
    async with httpx2.AsyncClient(base_url=mcp_base, headers=headers, timeout=30) as rest:
        assert (await rest.put(f"/v1/agents/{rich}/favourite")).status_code == 204
        assert (await rest.put(f"/v1/agents/{twin}/assistant")).status_code == 204

    async with connect(mcp_base, "streamable-http", user.api_key) as session:
        tools = await _tools(session)
        assert {"create_job", "get_agent_input_schema"} <= set(tools)  # the generic tools stay
        brief = tools["hire_brief_writer"]
        schema = brief.input_schema
        assert schema["required"] == ["topic", "count"]
        props = schema["properties"]
        assert props["topic"] == {
            "title": "Topic", "type": "string", "minLength": 2, "maxLength": 80,
        }  # fmt: skip
        assert props["count"]["type"] == "integer"
        assert (props["count"]["minimum"], props["count"]["maximum"]) == (1, 5)
        assert props["tone"]["enum"] == ["plain", "formal"]
        assert props["contact"]["format"] == "email"
        assert props["urgent"]["type"] == "boolean"
        assert schema["additionalProperties"] is False
        assert "2.1 credits" in (brief.description or "")
        assert "Credit ceiling" in (brief.description or "")
        # The second "brief writer" gets a stable suffix from its id.
        assert f"hire_brief_writer_{twin.replace('-', '')[:8]}" in tools
        assert not any(name.startswith("hire_reviewer") for name in tools)

        # Calling one creates a job exactly as create_job does: validated, charged.
        refused = await call_error(session, "hire_brief_writer", topic="x", count=9)
        assert "400" in refused and "inputData.topic" in refused and "inputData.count" in refused
        job = await call(session, "hire_brief_writer", topic="harbours", count=2)
        assert job["agentId"] == rich and job["status"] in ("PENDING", "RUNNING", "COMPLETED")
        assert json.loads(job["input"]) == {"topic": "harbours", "count": 2}
        assert job["price"]["credits"] == 2.1
        capped = await call_error(
            session, "hire_brief_writer", topic="harbours", count=2, _max_credits=1
        )
        assert "400" in capped and "maxAcceptedCredits" in capped
        again = await call(
            session, "hire_brief_writer", topic="lanterns", count=1, _idempotency_key="k-1"
        )
        same = await call(
            session, "hire_brief_writer", topic="lanterns", count=1, _idempotency_key="k-1"
        )
        assert again["id"] == same["id"]
        credits = await call(session, "get_credits")
        assert credits["balance"] == 10 - 2 * 2.1

    # Another person has none of these tools, and cannot call them.
    async with connect(mcp_base, "streamable-http", other.api_key) as session:
        assert not any(name.startswith("hire_") for name in await _tools(session))
        refused = await call_error(session, "hire_brief_writer", topic="harbours", count=2)
        assert "404" in refused


async def test_adding_a_favourite_sends_tools_list_changed_to_that_person_only(
    mcp_base: str, app: FastAPI, agents_server: LoopbackAgents, make_user: MakeUser
) -> None:
    user = await make_user(credits=to_base(10))
    other = await make_user(credits=to_base(10))
    agent_id = await register(app, agents_server, echo())
    heard: dict[str, asyncio.Event] = {"user": asyncio.Event(), "other": asyncio.Event()}

    def handler(who: str) -> Any:
        async def handle(message: Any) -> None:
            if isinstance(message, ToolListChangedNotification):
                heard[who].set()

        return handle

    async with (
        sse_client(f"{mcp_base}/sse", headers={"x-api-key": user.api_key}) as (read, write),
        ClientSession(read, write, message_handler=handler("user")) as session,
        sse_client(f"{mcp_base}/sse", headers={"x-api-key": other.api_key}) as (oread, owrite),
        ClientSession(oread, owrite, message_handler=handler("other")) as other_session,
    ):
        await session.initialize()
        await other_session.initialize()
        assert not any(n.startswith("hire_") for n in await _tools(session))
        await _tools(other_session)
        # On PostgreSQL the process's listener starts with the first session and, once
        # connected, wakes every subscriber (notifications may have been missed): a spurious
        # list_changed is allowed (clients just list again). Let it pass, then start clean.
        await asyncio.sleep(1.0)
        heard["user"].clear()
        heard["other"].clear()

        # The favourite is added over REST (another connection): the SSE session hears it.
        headers = {"Authorization": f"Bearer {user.api_key}"}
        async with httpx2.AsyncClient(base_url=mcp_base, headers=headers, timeout=30) as rest:
            assert (await rest.put(f"/v1/agents/{agent_id}/favourite")).status_code == 204
        await asyncio.wait_for(heard["user"].wait(), timeout=10)
        assert "hire_echo" in await _tools(session)
        assert not heard["other"].is_set()

        # Removing it (the MCP tool this time) is heard too, and the tool is gone.
        heard["user"].clear()
        await call(session, "favourite_agent", agent_id=agent_id, favourite=False)
        await asyncio.wait_for(heard["user"].wait(), timeout=10)
        assert "hire_echo" not in await _tools(session)
        heard["user"].clear()
        await call(session, "add_to_assistant", agent_id=agent_id)
        await asyncio.wait_for(heard["user"].wait(), timeout=10)
        assert "hire_echo" in await _tools(session)
        await asyncio.sleep(0.2)
        assert not heard["other"].is_set()


async def test_export_and_result_tools(
    mcp_base: str, app: FastAPI, agents_server: LoopbackAgents, make_user: MakeUser
) -> None:
    user = await make_user(credits=to_base(10))
    agent_id = await register(app, agents_server, echo(), price=1)
    async with connect(mcp_base, "streamable-http", user.api_key) as session:
        created = await call(
            session, "create_job", agent_id=agent_id, input_data={"text": "hi"}, name="=1+1"
        )
        jobs = await call(session, "export_jobs")
        rows = list(csv.reader(io.StringIO(jobs["csv"])))
        assert rows[0][0] == "job_id" and rows[1][0] == created["id"]
        assert rows[1][3] == "'=1+1"  # the formula guard
        assert jobs["rows"] == 1 and jobs["truncated"] is False
        assert jobs["download"].endswith("/v1/jobs/export?scope=owned")
        ledger = await call(session, "export_ledger")
        kinds = [row[2] for row in csv.reader(io.StringIO(ledger["csv"]))][1:]
        assert "grant" in kinds and "hold" in kinds
        spend = await call(session, "export_spend", start="2020-01-01", end="2020-02-01")
        assert spend["rows"] == 0 and "from=2020-01-01" in spend["download"]
        bad = await call_error(session, "export_spend", start="soon")
        assert "400" in bad and "from" in bad
        for _ in range(100):  # the server's own dispatcher runs the job
            if (await call(session, "get_job", job_id=created["id"]))["status"] == "COMPLETED":
                break
            await asyncio.sleep(0.1)
        result = await session.call_tool(
            "get_job_result", {"job_id": created["id"], "format": "json"}
        )
        assert json.loads(result.content[0].text) == "HI"  # type: ignore[union-attr]


async def test_upload_file_takes_base64_or_a_url_through_the_outbound_guard(
    mcp_base: str, make_user: MakeUser, settings: Settings
) -> None:
    user = await make_user()
    png = PNG
    async with connect(mcp_base, "streamable-http", user.api_key) as session:
        first = await call(
            session, "upload_file", filename="dot.png",
            content_base64=base64.b64encode(png).decode(),
        )  # fmt: skip
        assert first["name"] == "dot.png" and first["size"] == len(png)
        headers = {"Authorization": f"Bearer {user.api_key}"}
        async with httpx2.AsyncClient(base_url=mcp_base, headers=headers, timeout=30) as rest:
            got = await rest.get(f"/v1/files/{first['id']}/content")
            assert got.status_code == 200 and got.content == png
        # The same bytes by URL: the server fetches its own signed link (loopback is allowed
        # in the tests' outbound policy).
        signed = files_service.signed_url(
            settings, uuid.UUID(first["id"]), seconds=600, base=mcp_base
        )
        second = await call(session, "upload_file", filename="again.png", url=signed)
        assert second["id"] != first["id"] and second["size"] == len(png)
        for arguments, words in (
            ({"filename": "x"}, "content_base64 or url"),
            ({"filename": "x", "content_base64": "***"}, "not base64"),
            ({"filename": "x", "url": "ftp://example.com/a"}, "url"),
            ({"filename": "x", "url": "http://10.255.255.1/a.png"}, "url"),
            ({"filename": "x", "url": f"{mcp_base}/v1/files/nope/content"}, "HTTP 4"),
        ):
            refused = await call_error(session, "upload_file", **arguments)
            assert "400" in refused and words in refused, refused
