"""MCP tools of AI coworkers (the public Sokosumi tool names, reference/clients.md)."""

from __future__ import annotations

from typing import Any

from mcp.server.mcpserver import Context
from mcp.types import TextContent

from agora.auth.principal import Permission
from agora.coworkers import service
from agora.coworkers.schemas import CoworkerOut
from agora.mcp.runner import Tool, as_text, dump, tool_call

READ = Permission.READ


def coworker_dump(row: Any) -> dict[str, Any]:
    return dump(CoworkerOut.model_validate(row))


async def list_coworkers(
    ctx: Context,
    scope: str = "whitelisted",
    capability: str | list[str] | None = None,
    search: str | None = None,
    limit: int | None = None,
) -> TextContent:
    """AI coworkers that take tasks. scope: whitelisted (default), all (also yours),
    archived. capability: chat and/or tasks. search: name contains."""
    async with tool_call(ctx, READ) as call:
        found = await service.listing(
            call.session,
            call.principal,
            scope=scope,
            capabilities=capability,
            search=search,
            limit=limit,
        )
        return as_text([coworker_dump(r) for r in found.items])


async def get_coworker(ctx: Context, coworker: str) -> dict[str, Any]:
    """One coworker by id, slug or name."""
    async with tool_call(ctx, READ) as call:
        return coworker_dump(await service.find(call.session, call.principal, coworker))


TOOLS: list[Tool] = [list_coworkers, get_coworker]
