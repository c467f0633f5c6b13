"""MCP: people on tasks (docs/tasks.md) — assign, "my tasks", participants, unassign — the
same service as /v1/tasks."""

from __future__ import annotations

from typing import Any

import httpx2

from tests.conftest import MakeUser
from tests.mcp.test_mcp import call, call_error, connect


async def test_assign_my_tasks_participants_unassign(
    mcp_base: str, client: httpx2.AsyncClient, make_user: MakeUser
) -> None:
    user = await make_user(name="Ann")
    outsider = await make_user(name="Eve")
    made = await client.post("/v1/tasks", json={"name": "Minutes"}, headers=user.bearer_headers)
    assert made.status_code == 201, made.text
    task_id = made.json()["data"]["id"]
    async with connect(mcp_base, "streamable-http", user.api_key) as session:

        async def use(tool: str, **arguments: Any) -> Any:
            return await call(session, tool, **arguments)

        assert await use("list_tasks", assignee="me") == []
        assigned = await use("assign_task", task_id=task_id, assignee_id=str(user.user_id))
        assert assigned["assignee"] == {
            "type": "user", "id": str(user.user_id), "name": "Ann", "slug": None,
        }  # fmt: skip
        assert [t["id"] for t in await use("list_tasks", assignee="me")] == [task_id]
        joined = await use("add_task_participant", task_id=task_id, user_id=str(user.user_id))
        assert joined["participants"] == [{"id": str(user.user_id), "name": "Ann"}]
        refused = await call_error(
            session, "add_task_participant", task_id=task_id, user_id=str(outsider.user_id)
        )
        assert "400" in refused and "userId" in refused
        left = await use("remove_task_participant", task_id=task_id, user_id=str(user.user_id))
        assert left["participants"] == []
        unassigned = await use("assign_task", task_id=task_id)
        assert unassigned["assignee"] is None and unassigned["assigneeId"] is None
        kinds = [e["kind"] for e in await use("list_task_events", task_id=task_id)]
        assert kinds == [None, "assignment", "participants", "participants", "assignment"]
