"""The MCP server: tools over the REST services, streamable HTTP at ``/mcp`` (stateless, JSON
responses: any process answers any call) and SSE at ``/sse`` + ``/messages/``, both behind the
key check and the SDK's DNS-rebinding protection (hosts from AGORA_PUBLIC_URL and
AGORA_ALLOWED_HOSTS)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from mcp.server.mcpserver import MCPServer
from mcp.server.transport_security import TransportSecuritySettings
from starlette.routing import Route
from starlette.types import ASGIApp, Receive, Scope, Send

from agora import __version__
from agora.kit.db import Database
from agora.mcp.auth import McpAuthMiddleware
from agora.mcp.runner import Tool, ToolRunner, register
from agora.mcp.toolbox import Toolbox, ToolboxMiddleware
from agora.mip003.client import Mip003Client
from agora.settings import Settings

INSTRUCTIONS = """Agora: hire software agents for jobs paid in credits, organise jobs and tasks in
projects, and read one history feed. Typical flow: list_agents → get_agent_input_schema →
create_job → wait_for_job (answer_input_request when it is INPUT_REQUIRED) → read_history.
Your favourite agents and those you add with add_to_assistant are tools of their own,
hire_<name>, whose arguments are the agent's input."""


def transport_security(settings: Settings) -> TransportSecuritySettings:
    """Serve the configured public host and loopback; refuse any other Host (DNS rebinding)."""
    public = urlsplit(settings.public_url)
    hosts = {"127.0.0.1:*", "localhost:*", "[::1]:*", "127.0.0.1", "localhost"}
    origins = {"http://127.0.0.1:*", "http://localhost:*", "http://[::1]:*"}
    for host in [public.netloc, *settings.allowed_hosts]:
        if host:
            hosts.update({host, f"{host.split(':')[0]}:*"})
            origins.update({f"{public.scheme or 'https'}://{host}", f"https://{host}"})
    return TransportSecuritySettings(
        enable_dns_rebinding_protection=True,
        allowed_hosts=sorted(hosts),
        allowed_origins=sorted(origins),
    )


@dataclass
class McpApp:
    server: MCPServer
    runner: ToolRunner
    tools: Sequence[Tool] = ()
    routes: list[Route] = field(default_factory=list)
    _task: asyncio.Task[None] | None = None
    _stop: asyncio.Event = field(default_factory=asyncio.Event)
    _tools_registered: bool = False

    def register_tools(self) -> None:
        """Register the tools (once). Describing forty tools (a pydantic model and JSON schema
        each) costs a quarter second, so it happens on the first MCP request, or at a server's
        start (``app.freeze_startup_objects``), not whenever an app is built (every test)."""
        if not self._tools_registered:
            register(self.server, self.runner, self.tools)
            self._tools_registered = True

    async def start(self) -> None:
        """Run the streamable-HTTP session manager in a task of its own: its task group must be
        entered and left by the same task, whoever starts and stops the app."""
        started = asyncio.Event()

        async def hold() -> None:
            async with self.server.session_manager.run():
                started.set()
                await self._stop.wait()

        self._task = asyncio.create_task(hold(), name="mcp-session-manager")
        waiter = asyncio.create_task(started.wait())
        await asyncio.wait({waiter, self._task}, return_when=asyncio.FIRST_COMPLETED)
        if self._task.done():
            waiter.cancel()
            self._task.result()  # raises what stopped it

    async def stop(self) -> None:
        self._stop.set()
        if self._task is not None:
            await self._task


class _WithTools:
    """An MCP endpoint that registers the tools before its first request."""

    def __init__(self, app: ASGIApp, mcp: McpApp) -> None:
        self.app = app
        self.mcp = mcp

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        self.mcp.register_tools()
        await self.app(scope, receive, send)


def build_mcp(
    db: Database,
    settings: Settings,
    agent_client: Mip003Client,
    tools: Sequence[Tool],
    toolbox: Toolbox | None = None,
    listen: Callable[[], Awaitable[None]] | None = None,
) -> McpApp:
    """The MCP app: ``tools`` for everyone and, with ``toolbox``, each caller's own tools
    (mcp/toolbox.py; ``listen`` starts the process's listener of its topic)."""
    runner = ToolRunner(db, settings, agent_client)
    middleware = [ToolboxMiddleware(runner, toolbox, listen)] if toolbox is not None else []
    server: MCPServer = MCPServer(
        name="agora", instructions=INSTRUCTIONS, version=__version__, middleware=middleware
    )
    mcp = McpApp(server, runner, tools)
    security = transport_security(settings)
    # RFC 9728: where a refused client finds the authorization server (oauth/endpoints.py).
    well_known = f"{settings.public_url.rstrip('/')}/.well-known/oauth-protected-resource"
    streamable = _WithTools(
        McpAuthMiddleware(
            server.streamable_http_app(
                streamable_http_path="/mcp",
                stateless_http=True,
                json_response=True,
                transport_security=security,
            ),
            db,
            f"{well_known}/mcp",
        ),
        mcp,
    )
    sse = _WithTools(
        McpAuthMiddleware(
            server.sse_app(sse_path="/sse", message_path="/messages/", transport_security=security),
            db,
            f"{well_known}/sse",
        ),
        mcp,
    )
    mcp.routes = [
        Route("/mcp", streamable, methods=["GET", "POST", "DELETE"]),
        Route("/sse", sse, methods=["GET"]),
        Route("/messages/", sse, methods=["POST"]),
    ]
    return mcp
