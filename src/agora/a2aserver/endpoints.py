"""The A2A doors (docs/a2a.md, "Being hired over A2A"):

- ``GET /a2a/agents/{agentId}/.well-known/agent-card.json``: the Agent Card of a listed agent
  (public; 404 for an agent that is not listed and verified);
- ``POST /a2a/agents/{agentId}``: its JSON-RPC endpoint, ``a2a-sdk``'s ``JsonRpcDispatcher``
  (from ``create_jsonrpc_routes``) over ``handler.AgoraRequestHandler``, behind the key check of
  the MCP endpoints (an OAuth access token or an API key; a refusal is a 401 naming the
  protected-resource metadata of ``/a2a``). The body limit is the app's (``kit.observe``)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from a2a.server.context import ServerCallContext
from a2a.server.request_handlers.response_helpers import agent_card_to_dict
from a2a.server.routes import create_jsonrpc_routes
from a2a.server.routes.common import ServerCallContextBuilder
from fastapi import APIRouter
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from agora.a2aserver import cards
from agora.a2aserver.handler import AgoraRequestHandler, context_state
from agora.agents import service as agents_service
from agora.auth.dependencies import SessionDep, SettingsDep, public
from agora.kit.db import Database
from agora.kit.errors import NotFound
from agora.kit.units import UnitOfWorkRoute
from agora.mcp.auth import TOKEN_STATE, McpAuthMiddleware
from agora.models.statuses import AgentStatus
from agora.settings import Settings

PREFIX = "/a2a/agents"
router = APIRouter(include_in_schema=False, route_class=UnitOfWorkRoute)


@router.get(PREFIX + "/{agent_id}" + cards.CARD_PATH)
@public
async def agent_card(agent_id: str, session: SessionDep, settings: SettingsDep) -> JSONResponse:
    """The Agent Card of a listed, verified agent (A2A 1.0 JSON, the SDK's serialisation)."""
    try:
        agent = await agents_service.get_shown(session, agent_id)
        if agent.status != AgentStatus.VERIFIED:
            raise NotFound(f"Agent {agent_id} not found")
    except NotFound as exc:
        return JSONResponse({"error": "Not Found", "message": exc.message}, status_code=404)
    card = agent_card_to_dict(cards.agent_card(agent, settings.public_url))
    return JSONResponse(card, headers={"Cache-Control": "public, max-age=60"})


class _Calls(ServerCallContextBuilder):
    """The call context: the key the check let through, the agent of the URL, the workspace
    headers; nothing else of the request."""

    def build(self, request: Request) -> ServerCallContext:
        key = getattr(request.state, TOKEN_STATE, None)
        return ServerCallContext(state=context_state(request, key))


def _rpc_error(status: int, code: int, message: str) -> JSONResponse:
    error = {"code": code, "message": message}
    return JSONResponse({"jsonrpc": "2.0", "id": None, "error": error}, status_code=status)


class _BodyFirst:
    """The whole body read before the key check touches the database (the request lifecycle's
    rule, ``kit.units.read_body``): bounded in size by the app's layer (``kit.bodylimit``: 413)
    and in time here (``settings.http.body_timeout_seconds``: 408), then handed on."""

    def __init__(self, app: ASGIApp, seconds: float) -> None:
        self.app, self.seconds = app, seconds

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        chunks: list[bytes] = []
        try:
            async with asyncio.timeout(self.seconds):
                while True:
                    message = await receive()
                    if message["type"] == "http.disconnect":
                        return
                    chunks.append(message.get("body", b""))
                    if not message.get("more_body", False):
                        break
        except TimeoutError:
            late = f"the request body did not arrive within {self.seconds:g} seconds"
            await _rpc_error(408, -32600, late)(scope, receive, send)
            return
        except HTTPException as exc:  # over the body limit
            await _rpc_error(exc.status_code, -32600, str(exc.detail))(scope, receive, send)
            return
        body, given = b"".join(chunks), False

        async def replay() -> Message:
            nonlocal given
            if not given:
                given = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


def rpc_routes(
    db: Database, settings: Settings, listen: Callable[[], Awaitable[None]] | None = None
) -> list[Route]:
    """``POST /a2a/agents/{agentId}``: the SDK's JSON-RPC route (A2A 1.0, and 0.3 through the
    SDK's adapter) behind the body read and the key check. ``listen``: the process's listener
    of job events (``JobStreams.start``), started by the first followed task."""
    resource = f"{settings.public_url.rstrip('/')}/.well-known/oauth-protected-resource/a2a"
    handler = AgoraRequestHandler(db, settings, listen)
    routes = []
    for route in create_jsonrpc_routes(
        handler, PREFIX + "/{agent_id}", context_builder=_Calls(), enable_v0_3_compat=True
    ):
        checked = McpAuthMiddleware(route.app, db, resource)
        read_first = _BodyFirst(checked, settings.http.body_timeout_seconds)
        routes.append(Route(route.path, read_first, methods=["POST"], name="a2a-jsonrpc"))
    return routes
