"""Serve several MIP-003 agents from one ASGI app, each under its own first path segment
(``/echo/status``, ``/reviewer/start_job`` …). Used to mount the demo agents in the API process
and, in tests, to serve real agents on a loopback port.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Awaitable, Callable, Iterator, MutableMapping
from contextlib import contextmanager
from typing import Any, Literal

import uvicorn
from starlette.responses import JSONResponse

from agora.sandbox.protocol import Behaviour, build_agent_app

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


class AgentHost:
    """An ASGI app routing ``/<name>/...`` to the agent registered under ``name``."""

    def __init__(self) -> None:
        self._agents: dict[str, ASGIApp] = {}
        self.behaviours: dict[str, Behaviour] = {}

    def add(self, name: str, behaviour: Behaviour) -> str:
        """Serve ``behaviour`` under ``/<name>``; returns that path prefix."""
        self.behaviours[name] = behaviour
        self._agents[name] = build_agent_app(behaviour)
        return f"/{name}"

    def mount(self, name: str, app: ASGIApp) -> str:
        """Serve any ASGI ``app`` under ``/<name>`` (tests mount webhook receivers this way)."""
        self._agents[name] = app
        return f"/{name}"

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":  # nothing to start; acknowledge so servers proceed
            while True:
                message = await receive()
                if message["type"] == "lifespan.startup":
                    await send({"type": "lifespan.startup.complete"})
                elif message["type"] == "lifespan.shutdown":
                    await send({"type": "lifespan.shutdown.complete"})
                    return
        # Starlette convention: ``path`` stays whole, ``root_path`` grows with each mount.
        path: str = scope.get("path", "/")
        root_path: str = scope.get("root_path", "")
        route_path = path[len(root_path) :] if root_path and path.startswith(root_path) else path
        name = route_path.lstrip("/").partition("/")[0]
        agent = self._agents.get(name)
        if agent is None or scope["type"] != "http":
            await JSONResponse({"detail": "no such agent"}, status_code=404)(scope, receive, send)
            return
        await agent({**scope, "root_path": f"{root_path}/{name}"}, receive, send)


def free_port(host: str = "127.0.0.1") -> int:
    """A free TCP port on ``host`` (a loopback address, IPv4 or IPv6)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family) as sock:
        sock.bind((host, 0))
        return int(sock.getsockname()[1])


@contextmanager
def serve_in_thread(
    app: Any,
    name: str,
    *,
    lifespan: Literal["auto", "on", "off"] = "off",
    host: str = "127.0.0.1",
    port: int | None = None,
    start_seconds: float = 10.0,
) -> Iterator[str]:
    """Serve an ASGI app with uvicorn on ``host`` (loopback) and ``port`` (a free one unless
    given: an app that must know its URL before it starts) in a daemon thread (its own event
    loop; ``lifespan="on"`` runs the app's startup and shutdown); yield its base URL; stop it
    (bounded: ``start_seconds`` to start, 10 s to stop; requests still in flight — an agent that
    hangs on purpose, an open event stream — are cancelled after 1 s instead of holding the stop
    for the whole bound)."""
    port = port or free_port(host)
    config = uvicorn.Config(
        app, host=host, port=port, log_level="warning", access_log=False, lifespan=lifespan,
        timeout_graceful_shutdown=1,
    )  # fmt: skip
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, name=name, daemon=True)
    thread.start()
    deadline = time.monotonic() + start_seconds
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError(f"the {name} server did not start within {start_seconds:g} s")
        time.sleep(0.02)
    try:
        yield f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
