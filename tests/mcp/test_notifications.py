"""MCP tools of the inbox: list_notifications and mark_notifications."""

from __future__ import annotations

import asyncio

from fastapi import FastAPI

from agora.kit.money import to_base
from tests.conftest import MakeUser
from tests.jobs.helpers import register, reviewer
from tests.mcp.test_mcp import call, call_error, connect
from tests.support.agents import LoopbackAgents


async def test_list_and_mark_notifications(
    mcp_base: str, app: FastAPI, agents_server: LoopbackAgents, make_user: MakeUser
) -> None:
    user = await make_user(credits=to_base(10))
    agent_id = await register(app, agents_server, reviewer())
    async with connect(mcp_base, "streamable-http", user.api_key) as session:
        created = await call(session, "create_job", agent_id=agent_id, input_data={"text": "a"})
        page = {"items": []}
        for _ in range(100):  # the server's own dispatcher runs the job (≤ 10 s)
            page = await call(session, "list_notifications", unread=True)
            if page["items"]:
                break
            await asyncio.sleep(0.1)
        [item] = page["items"]
        assert item["kind"] == "job.input_required"
        assert item["subjectRef"] == f"job:{created['id']}"
        assert page["unreadCount"] == 1

        refused = await call_error(session, "mark_notifications")
        assert "400" in refused and "notification_id" in refused
        marked = await call(session, "mark_notifications", notification_id=item["id"])
        assert marked["read"] is True
        assert (await call(session, "list_notifications", unread=True))["items"] == []
        again = await call(session, "mark_notifications", notification_id=item["id"], unread=True)
        assert again["read"] is False
        by_ref = await call(session, "mark_notifications", subject_ref=item["subjectRef"])
        assert by_ref == {"changed": 1, "unreadCount": 0}

        # create_job takes a per-job webhook and its filter (checked as over REST).
        refused = await call_error(
            session,
            "create_job",
            agent_id=agent_id,
            input_data={"text": "a"},
            webhook="https://example.com/h",
            webhook_events_filter=["done"],
        )
        assert "400" in refused and "webhookEventsFilter" in refused
        hooked = await call(
            session,
            "create_job",
            agent_id=agent_id,
            input_data={"text": "a"},
            webhook="https://example.com/h",
            webhook_events_filter=["completed"],
        )
        assert hooked["status"] in ("PENDING", "RUNNING", "INPUT_REQUIRED")
