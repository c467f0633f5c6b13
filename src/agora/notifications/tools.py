"""MCP tools of the inbox (docs/notifications.md)."""

from __future__ import annotations

from typing import Any

from mcp.server.mcpserver import Context

from agora.auth.principal import Permission
from agora.kit.errors import BadRequest
from agora.kit.units import Mode
from agora.mcp.runner import Tool, dump, tool_call, tool_error
from agora.notifications import service

READ, PROFILE_WRITE = Permission.READ, Permission.PROFILE_WRITE


async def list_notifications(
    ctx: Context,
    unread: bool = False,
    kind: str | None = None,
    cursor: str | None = None,
    limit: int = 20,
) -> dict[str, Any]:
    """Your notifications, newest first: items, nextCursor (pass it back as cursor for
    older ones) and unreadCount. kind: comma-separated kinds (e.g. job.input_required)."""
    async with tool_call(ctx, READ) as call:
        page = await service.list_notifications(
            call.session,
            call.principal,
            secret=call.settings.resolved_secret_key(),
            unread=unread,
            kind=kind,
            cursor=cursor,
            limit=limit,
        )
        return dump(page.page())


async def mark_notifications(
    ctx: Context,
    notification_id: str | None = None,
    subject_ref: str | None = None,
    all_read: bool = False,
    unread: bool = False,
) -> dict[str, Any]:
    """Mark notifications read: one (notification_id; unread=true marks it unread again),
    all about one thing (subject_ref, e.g. "job:<id>"), or all (all_read=true)."""
    given = [notification_id is not None, subject_ref is not None, all_read]
    if sum(given) != 1:
        raise tool_error(
            BadRequest.field(
                "notification_id", "give exactly one of notification_id, subject_ref, all_read"
            )
        )
    async with tool_call(ctx, PROFILE_WRITE, Mode.WRITE) as call:
        if notification_id is not None:
            return dump(
                await service.mark(call.session, call.principal, notification_id, read=not unread)
            )
        if subject_ref is not None:
            return dump(await service.read_by_reference(call.session, call.principal, subject_ref))
        return dump(await service.mark_all_read(call.session, call.principal))


TOOLS: list[Tool] = [list_notifications, mark_notifications]
