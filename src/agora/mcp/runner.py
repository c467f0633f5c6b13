"""One way to run every tool: the caller's key → Principal, one transaction, the same service
function as REST, its output model as the result, our errors as clear tool errors."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

from mcp.server.mcpserver import Context
from mcp.server.mcpserver.exceptions import ToolError
from pydantic import BaseModel
from sqlalchemy.ext.asyncio import AsyncSession

from agora.auth import service as auth
from agora.auth.principal import Permission, Principal
from agora.kit.db import Database
from agora.kit.errors import AgoraError
from agora.kit.unavailable import database_error, database_unavailable
from agora.kit.units import Mode, Unit
from agora.mcp.auth import TOKEN_STATE
from agora.mip003.client import Mip003Client
from agora.settings import Settings


def tool_error(exc: AgoraError) -> ToolError:
    """``404 Not Found: Job … not found (field: reason)`` — the status, the words, the specifics."""
    details = "; ".join(f"{d.field}: {d.reason}" for d in exc.details)
    suffix = f" ({details})" if details and details not in exc.message else ""
    return ToolError(f"{exc.status_code} {exc.error_text}: {exc.message}{suffix}")


def dump(value: Any) -> Any:
    """Output models as JSON-ready dicts (lists of them too)."""
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    if isinstance(value, list):
        return [dump(v) for v in value]
    return value


@dataclass
class ToolRunner:
    db: Database
    settings: Settings
    agent_client: Mip003Client

    @asynccontextmanager
    async def call(
        self, ctx: Context, permission: Permission, *, write: bool = False
    ) -> AsyncIterator[tuple[AsyncSession, Principal]]:
        """The tool call's unit of work (the request lifecycle's ``Unit``, READ or WRITE: it
        commits only when the tool returns) and the authenticated caller holding
        ``permission``."""
        request = ctx.request_context.request
        state = getattr(request, "state", None)
        key = getattr(state, TOKEN_STATE, None) if state is not None else None
        headers = getattr(request, "headers", {}) or {}
        unit = Unit(self.db, Mode.WRITE if write else Mode.READ)
        try:
            session = await unit.session()
            principal = await auth.authenticate(
                session,
                self.db,
                key,
                workspace_header=headers.get("x-workspace-id"),
                organization_slug=headers.get("x-organization-slug"),
            )
            principal.require(permission)
            yield session, principal
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
