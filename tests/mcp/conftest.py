"""A real Agora server on loopback for MCP clients (the SDK's clients speak real HTTP, SSE
included). It runs in its own thread and event loop, so it gets its own engine on the test
database, and its own dispatcher, as `agora serve` has."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import pytest
import uvicorn

from agora.app import create_app
from agora.settings import Settings
from tests.jobs.helpers import fast_settings
from tests.support.server import free_port


@pytest.fixture
def settings(settings: Settings) -> Settings:
    return fast_settings(settings)


@pytest.fixture
def mcp_base(settings: Settings) -> Iterator[str]:
    port = free_port()
    served = settings.with_changes(run_dispatcher=True, public_url=f"http://127.0.0.1:{port}")
    app = create_app(served, migrate=False)
    server = uvicorn.Server(
        uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", access_log=False)
    )
    thread = threading.Thread(target=server.run, name="mcp-server", daemon=True)
    thread.start()
    deadline = time.monotonic() + 15
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the MCP test server did not start within 15 s")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=15)
