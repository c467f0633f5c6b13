"""Per-person tools: tools a caller has beside the server's own (``hire_<slug>``, one per agent of
their toolbox: jobs/toolbox.py), listed and called through a server middleware, and the
``notifications/tools/list_changed`` their connected sessions get when their toolbox changes.

The server's tools are the same for everyone; ``tools/list`` answers them and then the caller's
own (authenticated like any tool call), and a ``tools/call`` of a name with the toolbox's prefix
is answered here, never by the server's tool table. What the tools are is the composition
root's (``api.TOOLBOX``): this shell knows no domain.

Notifications: the connections whose sessions listed or called tools are remembered per user
(weakly: a connection that ends is forgotten) with the event loop that serves them; a wake-up of the
toolbox's topic keyed by the user id (after the commit that changed their toolbox; on
PostgreSQL a NOTIFY every process's listener delivers) sends each of them
``notifications/tools/list_changed``, bounded in time; a session that cannot take it is
forgotten. Sessions of the stateless streamable HTTP transport end with their request, so only
SSE sessions hear it; streamable HTTP clients read the list again (docs/mcp.md)."""

from __future__ import annotations

import asyncio
import json
import weakref
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import structlog
from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import CallToolResult, ListToolsResult, TextContent
from mcp.types import Tool as McpTool

from agora.auth.principal import Permission
from agora.kit import background
from agora.kit.internals import mcp_connection
from agora.kit.units import Mode
from agora.mcp.runner import ToolCall, ToolRunner

log = structlog.get_logger(__name__)

NOTIFY_SECONDS = 5.0  # the most one session's notification may take


@dataclass(frozen=True)
class PersonalTool:
    name: str
    description: str
    input_schema: dict[str, Any]


@dataclass(frozen=True)
class Toolbox:
    """What the composition root hands the MCP server: the prefix of the tools' names, the
    topic (keyed by user id) that says a person's toolbox changed, how to list a caller's
    tools and how to call one (its JSON-ready result)."""

    prefix: str
    topic: str
    listed: Callable[[ToolCall], Awaitable[list[PersonalTool]]]
    called: Callable[[ToolCall, str, dict[str, Any]], Awaitable[Any]]


@dataclass
class _Listeners:
    loop: asyncio.AbstractEventLoop
    sessions: weakref.WeakSet[Any] = field(default_factory=weakref.WeakSet)
    unsubscribe: Callable[[], None] | None = None


class Sessions:
    """The connected sessions of each user, told when their tool list changed."""

    def __init__(self, topic: str, listen: Callable[[], Awaitable[None]] | None = None) -> None:
        self.topic = topic
        self.listen = listen  # starts this process's listener of the topic (PostgreSQL)
        self._users: dict[str, _Listeners] = {}
        self._sending: set[asyncio.Task[None]] = set()

    async def add(self, user_id: object, session: Any) -> None:
        key = str(user_id)
        listeners = self._users.get(key)
        if listeners is None:
            if self.listen is not None:
                await self.listen()
            listeners = self._users[key] = _Listeners(asyncio.get_running_loop())
            listeners.unsubscribe = background.subscribe(
                self.topic, lambda: self._changed(key), key=key
            )
        listeners.sessions.add(mcp_connection(session))

    def _changed(self, key: str) -> None:
        """A wake-up (from any thread): notify on the loop that serves the sessions."""
        listeners = self._users.get(key)
        if listeners is not None and not listeners.loop.is_closed():
            listeners.loop.call_soon_threadsafe(self._notify, key)

    def _notify(self, key: str) -> None:
        listeners = self._users.get(key)
        if listeners is None:
            return
        sessions = list(listeners.sessions)
        if not sessions:
            self._forget(key)
            return
        for session in sessions:
            task = asyncio.get_running_loop().create_task(self._tell(listeners, session))
            self._sending.add(task)
            task.add_done_callback(self._sending.discard)

    async def _tell(self, listeners: _Listeners, session: Any) -> None:
        try:
            async with asyncio.timeout(NOTIFY_SECONDS):
                await session.send_tool_list_changed()
        except Exception as exc:  # a closed or stuck session: forget it
            listeners.sessions.discard(session)
            log.info("mcp_list_changed_not_sent", error=type(exc).__name__)

    def _forget(self, key: str) -> None:
        listeners = self._users.pop(key, None)
        if listeners is not None and listeners.unsubscribe is not None:
            listeners.unsubscribe()


class ToolboxMiddleware:
    """The server middleware (``MCPServer(middleware=...)``) that adds a caller's own tools to
    ``tools/list`` and answers ``tools/call`` of them."""

    def __init__(
        self,
        runner: ToolRunner,
        toolbox: Toolbox,
        listen: Callable[[], Awaitable[None]] | None = None,
    ) -> None:
        self.runner = runner
        self.toolbox = toolbox
        self.sessions = Sessions(toolbox.topic, listen)

    async def __call__(
        self, ctx: ServerRequestContext[Any, Any], call_next: CallNext
    ) -> HandlerResult:
        if ctx.request_id is not None and ctx.method == "tools/list":
            return await self._list(ctx, await call_next(ctx))
        if ctx.request_id is not None and ctx.method == "tools/call":
            name = (ctx.params or {}).get("name")
            if isinstance(name, str) and name.startswith(self.toolbox.prefix):
                return await self._call(ctx, name, (ctx.params or {}).get("arguments"))
        return await call_next(ctx)

    async def _list(
        self, ctx: ServerRequestContext[Any, Any], result: HandlerResult
    ) -> HandlerResult:
        listed = result if isinstance(result, dict) else None
        if isinstance(result, ListToolsResult):
            listed = result.model_dump(mode="json", by_alias=True, exclude_none=True)
        if listed is None or listed.get("nextCursor") is not None:
            return result  # the caller's tools follow the last page of the server's
        try:
            async with self.runner.call_for(ctx.request, Permission.READ) as call:
                await self.sessions.add(call.principal.user_id, ctx.session)
                mine = await self.toolbox.listed(call)
        except ToolError:
            return result  # no toolbox for this caller (e.g. a key without READ)
        tools = [
            McpTool(name=t.name, description=t.description, input_schema=t.input_schema)
            for t in mine
        ]
        dumped = [t.model_dump(mode="json", by_alias=True, exclude_none=True) for t in tools]
        return {**listed, "tools": [*listed.get("tools", []), *dumped]}

    async def _call(
        self, ctx: ServerRequestContext[Any, Any], name: str, arguments: Any
    ) -> CallToolResult:
        if arguments is not None and not isinstance(arguments, dict):
            return _error("400 Invalid request parameters: arguments must be an object")
        try:
            async with self.runner.call_for(ctx.request, Permission.JOBS_WRITE, Mode.WRITE) as call:
                await self.sessions.add(call.principal.user_id, ctx.session)
                value = await self.toolbox.called(call, name, dict(arguments or {}))
        except ToolError as exc:
            return _error(str(exc))
        text = json.dumps(value, ensure_ascii=False, indent=2)
        structured = value if isinstance(value, dict) else None
        return CallToolResult(
            content=[TextContent(type="text", text=text)], structured_content=structured
        )


def _error(message: str) -> CallToolResult:
    return CallToolResult(content=[TextContent(type="text", text=message)], is_error=True)
