"""Real MIP-003 agents on a loopback port for tests: one uvicorn server in a background thread,
serving an ``AgentHost`` to which each test adds the behaviours it needs."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from agora.sandbox.host import AgentHost
from agora.sandbox.protocol import Behaviour
from tests.support.server import serve_in_thread


@dataclass
class LoopbackAgents:
    host: AgentHost
    base_url: str

    def serve(self, behaviour: Behaviour, name: str | None = None) -> str:
        """Serve ``behaviour`` under a fresh path; returns the agent's base URL."""
        path = self.host.add(name or f"{behaviour.name}-{uuid.uuid4().hex[:8]}", behaviour)
        return f"{self.base_url}{path}"


@contextmanager
def serve_asgi(app: Any, name: str = "loopback-app") -> Iterator[str]:
    """Serve ``app`` with uvicorn on a free loopback port in a thread; yields its base URL."""
    with serve_in_thread(app, name) as base_url:
        yield base_url


@contextmanager
def loopback_agents() -> Iterator[LoopbackAgents]:
    host = AgentHost()
    with serve_in_thread(host, "loopback-agents") as base_url:
        yield LoopbackAgents(host, base_url)
