"""MCP tools of the caller's profile."""

from __future__ import annotations

from typing import Any

from mcp.server.mcpserver import Context

from agora.auth.principal import Permission
from agora.kit.units import Mode
from agora.mcp.runner import Tool, dump, tool_call, validated
from agora.users import service
from agora.users.schemas import ProfileUpdate, UserOut

READ, PROFILE_WRITE = Permission.READ, Permission.PROFILE_WRITE


async def _own_profile(ctx: Context) -> dict[str, Any]:
    async with tool_call(ctx, READ) as call:
        return dump(
            UserOut.model_validate(await service.get_profile(call.session, call.principal.user_id))
        )


async def get_profile(ctx: Context) -> dict[str, Any]:
    """Your profile."""
    return await _own_profile(ctx)


async def update_profile(
    ctx: Context,
    name: str | None = None,
    marketing_opt_in: bool | None = None,
    job_status_notifications_opt_in: bool | None = None,
) -> dict[str, Any]:
    """Change only the given profile fields."""
    body = validated(
        ProfileUpdate,
        name=name,
        marketingOptIn=marketing_opt_in,
        jobStatusNotificationsOptIn=job_status_notifications_opt_in,
    )
    async with tool_call(ctx, PROFILE_WRITE, Mode.WRITE) as call:
        user = await service.update_profile(call.session, call.principal.user_id, body)
        return dump(UserOut.model_validate(user))


async def get_user_profile(ctx: Context) -> dict[str, Any]:
    """Your profile (name, email, preferences)."""
    return await _own_profile(ctx)


TOOLS: list[Tool] = [get_profile, update_profile, get_user_profile]
