"""MCP tool of the history feed (docs/history.md)."""

from __future__ import annotations

from typing import Any, Literal

from mcp.server.mcpserver import Context

from agora.auth.principal import Permission
from agora.history import service
from agora.mcp.runner import Tool, dump, tool_call

READ = Permission.READ


async def read_history(
    ctx: Context,
    cursor: str | None = None,
    limit: int = 20,
    scope: Literal["owned", "workspace"] = "owned",
    types: str | None = None,
    status: str | None = None,
    project_id: str | None = None,
    q: str | None = None,
) -> dict[str, Any]:
    """The time-ordered feed of tasks, jobs and conversations (newest change first).
    types: comma-separated task,job,conversation. status: task/job statuses and/or the
    conversation states active, archived. project_id: an id or 'null'. Page with cursor."""
    query = service.FeedQuery(cursor, limit, scope, types, status, project_id, q)
    async with tool_call(ctx, READ) as call:
        page = await service.read_feed(
            call.session, call.principal, query, call.settings.resolved_secret_key()
        )
    return dump(page)


TOOLS: list[Tool] = [read_history]
