"""MCP tool of the workspace's credits."""

from __future__ import annotations

from typing import Any

from mcp.server.mcpserver import Context

from agora.auth.principal import Permission
from agora.credits import service
from agora.credits.schemas import CreditsOut
from agora.mcp.runner import Tool, dump, tool_call

READ = Permission.READ


async def get_credits(ctx: Context) -> dict[str, Any]:
    """The workspace's credit balance, held credits and recent ledger entries."""
    async with tool_call(ctx, READ) as call:
        return dump(CreditsOut.model_validate(await service.account(call.session, call.principal)))


TOOLS: list[Tool] = [get_credits]
