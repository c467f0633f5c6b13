"""One way to run every tool: the caller's key → Principal, the request lifecycle's ``Unit`` in
the tool's declared mode, the same use case as REST, its output model as the result, our errors
as clear tool errors.

A domain's tools are module-level functions in its ``tools.py`` (the MCP SDK's own shape), each
``async with tool_call(ctx, Permission.X[, Mode.Y]) as call:`` around one use case. ``call``
carries the unit (a CALLS_OUT tool moves through ``call.unit.call_out(...)`` and
``await call.unit.write()``, as a route does), the read phase's session, the principal, the
settings and the agent client. The server registers the tools ``api.TOOLS`` lists.
"""

from __future__ import annotations

import inspect
import json
import weakref
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass
from typing import Any, TypeVar

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import TextContent
from pydantic import BaseModel
from sqlalchemy.ext.asyncio import AsyncSession

from agora.auth import service as auth
from agora.auth.principal import Permission, Principal
from agora.kit.db import Database
from agora.kit.errors import AgoraError
from agora.kit.replica import route_reads
from agora.kit.unavailable import database_error, database_unavailable
from agora.kit.units import Mode, Unit
from agora.mcp.auth import TOKEN_STATE
from agora.mip003.client import Mip003Client
from agora.settings import Settings

Tool = Callable[..., Awaitable[Any]]
Model = TypeVar("Model", bound=BaseModel)


def tool_error(exc: AgoraError) -> ToolError:
    """``404 Not Found: Job … not found (field: reason)`` — the status, the words, the specifics."""
    details = "; ".join(f"{d.field}: {d.reason}" for d in exc.details)
    suffix = f" ({details})" if details and details not in exc.message else ""
    return ToolError(f"{exc.status_code} {exc.error_text}: {exc.message}{suffix}")


def dump(model: BaseModel) -> dict[str, Any]:
    """An output model as a JSON-ready dict (the tool's result)."""
    return model.model_dump(mode="json")


def dump_all(models: Sequence[BaseModel]) -> list[dict[str, Any]]:
    return [dump(model) for model in models]


def plain(value: Any) -> Any:
    """Output models as JSON-ready data, inside lists and dicts too."""
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    if isinstance(value, list):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    return value


def as_text(value: Any) -> TextContent:
    """A list result as one JSON text (an empty list stays visible as ``[]``)."""
    return TextContent(type="text", text=json.dumps(plain(value), ensure_ascii=False, indent=2))


def validated(model: type[Model], **fields: Any) -> Model:
    """Build a request model from tool arguments (``None`` = not given); a bad value is a tool
    error naming the field."""
    try:
        return model(**{k: v for k, v in fields.items() if v is not None})
    except ValueError as exc:
        raise ToolError(f"400 Invalid request parameters: {exc}") from exc


@dataclass
class ToolCall:
    """One tool call's unit of work and caller (``session`` is the first phase's)."""

    unit: Unit
    session: AsyncSession
    principal: Principal
    settings: Settings
    agent_client: Mip003Client


@dataclass
class ToolRunner:
    db: Database
    settings: Settings
    agent_client: Mip003Client

    def call(
        self, ctx: Context, permission: Permission, declared: Mode = Mode.READ
    ) -> AbstractAsyncContextManager[ToolCall]:
        """The tool call's unit of work in its declared mode (it commits only when the tool
        returns) and the authenticated caller holding ``permission``; after-commit hooks run
        before the tool's answer."""
        return self.call_for(ctx.request_context.request, permission, declared)

    @asynccontextmanager
    async def call_for(
        self, request: Any, permission: Permission, declared: Mode = Mode.READ
    ) -> AsyncIterator[ToolCall]:
        """``call`` for the HTTP request an MCP message came in (a middleware's: mcp/toolbox.py)."""
        state = getattr(request, "state", None)
        key = getattr(state, TOKEN_STATE, None) if state is not None else None
        headers = getattr(request, "headers", {}) or {}
        unit = Unit(self.db, declared)
        try:
            session = await unit.session()
            principal = await auth.authenticate(
                session,
                key,
                workspace_header=headers.get("x-workspace-id"),
                organization_slug=headers.get("x-organization-slug"),
            )
            principal.require(permission)
            await route_reads(session, principal.user_id)  # a read tool may read the replica
            yield ToolCall(unit, session, principal, self.settings, self.agent_client)
            await unit.finish(None)
        except BaseException as exc:
            await unit.finish(exc)  # a no-op when the commit itself failed
            if isinstance(exc, AgoraError):
                raise tool_error(exc) from exc
            if isinstance(exc, Exception) and database_unavailable(exc):
                raise tool_error(database_error()) from exc
            raise
        for hook, committed in unit.after:  # after commit, before the tool's answer
            await hook(committed)


# The server a tool runs on → its runner (one per app; tests build many apps).
_RUNNERS: weakref.WeakKeyDictionary[MCPServer, ToolRunner] = weakref.WeakKeyDictionary()


def register(server: MCPServer, runner: ToolRunner, tools: Sequence[Tool]) -> None:
    """Register ``tools`` on ``server`` (each docstring, dedented, is the description) and bind
    the runner their calls use."""
    _RUNNERS[server] = runner
    for tool in tools:
        server.add_tool(tool, description=inspect.cleandoc(tool.__doc__ or ""))


def runner_of(ctx: Context) -> ToolRunner:
    return _RUNNERS[ctx.mcp_server]


def tool_call(
    ctx: Context, permission: Permission, declared: Mode = Mode.READ
) -> AbstractAsyncContextManager[ToolCall]:
    """``async with tool_call(ctx, Permission.X, Mode.WRITE) as call:`` (see the module)."""
    return runner_of(ctx).call(ctx, permission, declared)
