"""A real Agora server on loopback for MCP clients (the SDK's clients speak real HTTP, SSE
included). It runs in its own thread and event loop, so it gets its own engine on the test
database, and its own dispatcher, as `agora serve` has."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from agora.app import create_app
from agora.settings import Settings
from tests.jobs.helpers import fast_settings
from tests.support.server import free_port, serve_in_thread


@pytest.fixture
def settings(settings: Settings) -> Settings:
    return fast_settings(settings)


@pytest.fixture
def mcp_base(settings: Settings) -> Iterator[str]:
    port = free_port()
    served = settings.with_changes(run_dispatcher=True, public_url=f"http://127.0.0.1:{port}")
    app = create_app(served, migrate=False)
    with serve_in_thread(app, "mcp-server", lifespan="on", port=port, start_seconds=15) as base:
        yield base
