"""Real MIP-003 agents on a loopback port for tests: one uvicorn server in a background thread,
serving an ``AgentHost`` to which each test adds the behaviours it needs."""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import uvicorn

from agora.demo_agents.host import AgentHost
from agora.demo_agents.protocol import Behaviour
from tests.support.server import free_port


@dataclass
class LoopbackAgents:
    host: AgentHost
    base_url: str

    def serve(self, behaviour: Behaviour, name: str | None = None) -> str:
        """Serve ``behaviour`` under a fresh path; returns the agent's base URL."""
        path = self.host.add(name or f"{behaviour.name}-{uuid.uuid4().hex[:8]}", behaviour)
        return f"{self.base_url}{path}"


@contextmanager
def loopback_agents() -> Iterator[LoopbackAgents]:
    host = AgentHost()
    port = free_port()
    config = uvicorn.Config(
        host, host="127.0.0.1", port=port, log_level="warning", access_log=False, lifespan="off"
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, name="loopback-agents", daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the loopback agent server did not start within 10 s")
        time.sleep(0.02)
    try:
        yield LoopbackAgents(host, f"http://127.0.0.1:{port}")
    finally:
        server.should_exit = True
        thread.join(timeout=10)
