"""Schedule tools over MCP (issue 35): preview, create, read, pause/resume/end, errors."""

from __future__ import annotations

from fastapi import FastAPI

from agora.kit.money import to_base
from tests.conftest import MakeUser
from tests.jobs.helpers import echo, register
from tests.mcp.test_mcp import call, call_error, connect
from tests.support.agents import LoopbackAgents


async def test_schedules_through_tools(
    mcp_base: str, app: FastAPI, agents_server: LoopbackAgents, make_user: MakeUser
) -> None:
    user = await make_user(credits=to_base(10))
    agent_id = await register(app, agents_server, echo(), price=1)
    async with connect(mcp_base, "streamable-http", user.api_key) as session:
        preview = await call(
            session, "preview_schedule", cron="0 9 * * MON", timezone="America/New_York"
        )
        assert len(preview["occurrences"]) == 5
        assert all(t.startswith(("20", "21")) and "T09:00:00-0" in t for t in preview["local"])
        assert "timezone" in await call_error(
            session, "preview_schedule", cron="0 9 * * *", timezone="Nowhere/Else"
        )
        created = await call(
            session,
            "create_schedule",
            agent_id=agent_id,
            cron="0 9 * * MON",
            timezone="America/New_York",
            input_data={"text": "weekly"},
            monthly_budget=5,
            task_name="Weekly report",
        )
        assert created["state"] == "active" and created["monthlyBudget"] == 5.0
        assert created["task"] == {"name": "Weekly report", "description": ""}
        shown = await call(session, "get_schedule", schedule_id=created["id"])
        assert shown["occurrences"] == preview["local"] and shown["runs"] == []
        listed = await call(session, "list_schedules")
        assert [s["id"] for s in listed["schedules"]] == [created["id"]]
        paused = await call(session, "update_schedule", schedule_id=created["id"], action="pause")
        assert paused["state"] == "paused"
        resumed = await call(
            session, "update_schedule", schedule_id=created["id"], action="resume", name="Weekly"
        )
        assert (resumed["state"], resumed["name"]) == ("active", "Weekly")
        ended = await call(session, "update_schedule", schedule_id=created["id"], action="end")
        assert ended["state"] == "ended" and ended["nextRunAt"] is None
    other = await make_user()
    async with connect(mcp_base, "streamable-http", other.api_key) as session:
        assert "not found" in await call_error(session, "get_schedule", schedule_id=created["id"])
