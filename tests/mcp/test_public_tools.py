"""Every public Sokosumi MCP tool name (reference/clients.md), called once with its argument
names through the official SDK client over streamable HTTP: each answers without error and its
result is the API's ``data``."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import httpx2
from fastapi import FastAPI

from agora.accounts import provisioning as identity
from agora.accounts import repository as identity_repo
from agora.kit.db import Database
from agora.kit.money import to_base
from tests.conftest import MakeUser
from tests.jobs.helpers import echo, register, reviewer
from tests.mcp.test_mcp import call, call_error, connect
from tests.support.agents import LoopbackAgents

PUBLIC_TOOLS = {
    "list_agents", "get_agent", "get_agent_input_schema", "list_categories", "create_job",
    "get_job", "list_agent_jobs", "list_jobs", "list_job_events", "list_job_files",
    "list_job_links", "get_job_input_request", "provide_job_input", "get_user_profile",
    "list_coworkers", "get_coworker", "create_coworker_task", "list_tasks", "get_task",
    "list_task_events", "list_task_jobs", "create_task_event", "add_job_to_task", "search",
    "fetch",
}  # fmt: skip


async def _whitelisted_coworker(
    client: httpx2.AsyncClient, db: Database, owner_key: str, admin_user: Any
) -> dict[str, Any]:
    async with db.transaction() as session:
        row = await identity_repo.user_by_id(session, admin_user.user_id)
        assert row is not None
        admin_key = (await identity.create_key(session, user=row, kind="admin")).plaintext
    created = await client.post(
        "/v1/coworkers",
        json={"name": "Scribe", "capabilities": ["tasks"]},
        headers={"Authorization": f"Bearer {owner_key}"},
    )
    assert created.status_code == 201, created.text
    coworker: dict[str, Any] = created.json()["data"]
    whitelisted = await client.post(
        f"/v1/admin/coworkers/{coworker['id']}/whitelist",
        headers={"Authorization": f"Bearer {admin_key}"},
    )
    assert whitelisted.status_code == 200, whitelisted.text
    return coworker


async def test_every_public_tool_answers(
    mcp_base: str,
    app: FastAPI,
    client: httpx2.AsyncClient,
    db: Database,
    agents_server: LoopbackAgents,
    make_user: MakeUser,
) -> None:
    user = await make_user(credits=to_base(50))
    operator = await make_user()
    echo_id = await register(app, agents_server, echo())
    reviewer_id = await register(app, agents_server, reviewer(), price=1)
    coworker = await _whitelisted_coworker(client, db, user.api_key, operator)
    called: set[str] = set()

    async with connect(mcp_base, "streamable-http", user.api_key) as session:
        names = {tool.name for tool in (await session.list_tools()).tools}
        assert names >= PUBLIC_TOOLS
        assert {"wait_for_job", "read_history", "list_projects"} <= names  # Agora's own stay

        async def use(tool: str, **arguments: Any) -> Any:
            called.add(tool)
            return await call(session, tool, **arguments)

        agents = await use("list_agents")
        assert {a["id"] for a in agents} == {echo_id, reviewer_id}
        assert (await use("get_agent", agent_id=echo_id))["id"] == echo_id
        schema = await use("get_agent_input_schema", agent_id=echo_id)
        assert [f["id"] for f in schema["input_data"]] == ["text", "mode"]
        assert isinstance(await use("list_categories"), list)
        found = await use("search", query="echo")
        assert [a["id"] for a in found] == [echo_id]
        fetched = await use("fetch", id=echo_id)
        assert fetched["id"] == echo_id and fetched["inputSchema"]["input_data"]

        job = await use(
            "create_job",
            agent_id=reviewer_id,
            max_accepted_credits=5,
            input_data={"text": "see https://example.com/spec.pdf"},
            name="Review",
        )
        assert job["name"] == "Review"
        deadline = time.monotonic() + 20
        while (await use("get_job", job_id=job["id"]))["status"] != "INPUT_REQUIRED":
            assert time.monotonic() < deadline, "the job never asked for input"
            await asyncio.sleep(0.05)
        request = await use("get_job_input_request", job_id=job["id"])
        assert request["eventId"]
        job_events = await use("list_job_events", job_id=job["id"])
        assert {e["jobId"] for e in job_events} == {job["id"]}
        files = await use("list_job_files", job_id=job["id"])
        assert [f["name"] for f in files] == ["spec.pdf"]
        assert await use("list_job_links", job_id=job["id"]) == []
        answered = await use(
            "provide_job_input",
            job_id=job["id"],
            event_id=request["eventId"],
            input_data={"approve": True},
        )
        assert answered["status"] == "RUNNING"
        assert [j["id"] for j in await use("list_agent_jobs", agent_id=reviewer_id)] == [job["id"]]
        assert [j["id"] for j in await use("list_jobs", status="running,completed")] == [job["id"]]
        assert (await use("get_user_profile"))["id"] == str(user.user_id)

        listed = await use("list_coworkers", capability="tasks", search="scr", limit=5)
        assert [c["id"] for c in listed] == [coworker["id"]]
        assert (await use("get_coworker", coworker="Scribe"))["id"] == coworker["id"]
        task = await use(
            "create_coworker_task", coworker=coworker["slug"], description="Take the minutes"
        )
        assert task["coworkerId"] == coworker["id"] and task["name"] == "Take the minutes"
        tasks = await use("list_tasks", coworker="Scribe", status="ready", limit=10)
        assert [t["id"] for t in tasks] == [task["id"]]
        assert (await use("get_task", task_id=task["id"]))["status"] == "READY"
        event = await use(
            "create_task_event", task_id=task["id"], comment="thanks", status="RUNNING"
        )
        assert event["actor"]["type"] == "user"
        timeline = await use("list_task_events", task_id=task["id"])
        assert [e["status"] for e in timeline] == ["READY", "RUNNING"]
        added = await use(
            "add_job_to_task",
            task_id=task["id"],
            agent_id=echo_id,
            max_accepted_credits=0,
            input_data={"text": "hi"},
        )
        assert added["taskId"] == task["id"]
        assert [j["id"] for j in await use("list_task_jobs", task_id=task["id"])] == [added["id"]]

        # Errors are text an assistant can act on.
        wrong = await call_error(session, "list_tasks", scope="everyone")
        assert "scope" in wrong
        stale = await call_error(
            session, "provide_job_input", job_id=job["id"], event_id=request["eventId"],
            input_data={"approve": True},
        )  # fmt: skip
        assert "409" in stale, stale

    assert called == PUBLIC_TOOLS
