"""The A2A doors (docs/a2a.md, "Being hired over A2A"):

- ``GET /a2a/agents/{agentId}/.well-known/agent-card.json``: the Agent Card of a listed agent
  (public; 404 for an agent that is not listed and verified);
- ``POST /a2a/agents/{agentId}``: its JSON-RPC endpoint, ``a2a-sdk``'s ``JsonRpcDispatcher``
  (from ``create_jsonrpc_routes``) over ``handler.AgoraRequestHandler``, behind the key check of
  the MCP endpoints (an OAuth access token or an API key; a refusal is a 401 naming the
  protected-resource metadata of ``/a2a``). The body limit is the app's (``kit.observe``)."""

from __future__ import annotations

from a2a.server.context import ServerCallContext
from a2a.server.request_handlers.response_helpers import agent_card_to_dict
from a2a.server.routes import create_jsonrpc_routes
from a2a.server.routes.common import ServerCallContextBuilder
from fastapi import APIRouter
from fastapi.responses import JSONResponse
from starlette.requests import Request
from starlette.routing import Route

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


def rpc_routes(db: Database, settings: Settings) -> list[Route]:
    """``POST /a2a/agents/{agentId}``: the SDK's JSON-RPC route behind the key check."""
    resource = f"{settings.public_url.rstrip('/')}/.well-known/oauth-protected-resource/a2a"
    handler = AgoraRequestHandler(db, settings)
    routes = []
    for route in create_jsonrpc_routes(handler, PREFIX + "/{agent_id}", context_builder=_Calls()):
        checked = McpAuthMiddleware(route.app, db, resource)
        routes.append(Route(route.path, checked, methods=["POST"], name="a2a-jsonrpc"))
    return routes
