"""No transaction is open while Agora waits for an agent (house rule; issue 13 item 2).

A loopback agent whose ``/availability`` takes ~2 s is registered and verified through the admin
API; meanwhile an unrelated write (``POST /v1/projects``) must go through at once. On SQLite a
write transaction holds the database's only write lock, so before the fix the project waited
behind the check (~1.75 s measured).
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Coroutine, Iterator
from contextlib import contextmanager
from typing import Any

import httpx2
import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from tests.conftest import MakeUser, TestUser
from tests.support.agents import serve_asgi

CHECK_SECONDS = 4.0
# An unrelated write on an idle test database takes well under this; one stuck behind the
# check takes ~CHECK_SECONDS.
UNDELAYED_SECONDS = 2.0

# SQLite has one write lock, so a transaction held across a probe stalls every other writer;
# on PostgreSQL unrelated writes never wait on each other, and the timing would only measure
# the machine's load.
pytestmark = pytest.mark.sqlite_only


@contextmanager
def slow_agent(delay: float) -> Iterator[tuple[str, threading.Event]]:
    """A MIP-003 agent whose /availability answers after ``delay`` seconds."""
    asked = threading.Event()

    async def availability(_request: Request) -> Response:
        asked.set()
        await asyncio.sleep(delay)
        return JSONResponse({"status": "available", "type": "masumi-agent", "message": "slow"})

    async def input_schema(_request: Request) -> Response:
        return JSONResponse({"input_data": [{"id": "text", "type": "string", "name": "Text"}]})

    app = Starlette(
        routes=[Route("/availability", availability), Route("/input_schema", input_schema)]
    )
    with serve_asgi(app, "slow-agent") as url:
        yield url, asked


async def _wait_for(event: threading.Event, within: float = 5.0) -> None:
    deadline = time.monotonic() + within
    while not event.is_set():
        assert time.monotonic() < deadline, "the agent was never asked"
        await asyncio.sleep(0.01)


async def _write_during_check(
    client: httpx2.AsyncClient,
    user: TestUser,
    asked: threading.Event,
    slow_request: Coroutine[Any, Any, httpx2.Response],
) -> tuple[float, httpx2.Response]:
    """Start ``slow_request``; once the agent is being asked, time an unrelated write."""
    asked.clear()
    checking = asyncio.create_task(slow_request)
    await _wait_for(asked)
    started = time.monotonic()
    created = await client.post(
        "/v1/projects", json={"name": "unrelated"}, headers=user.key_headers
    )
    elapsed = time.monotonic() - started
    assert created.status_code == 201, created.text
    assert not checking.done(), "the check should still be under way"
    return elapsed, await asyncio.wait_for(checking, CHECK_SECONDS + 10)


async def test_a_slow_registration_check_does_not_delay_other_writes(
    client: httpx2.AsyncClient, admin: TestUser, make_user: MakeUser
) -> None:
    user = await make_user()
    with slow_agent(CHECK_SECONDS) as (url, asked):
        body = {"baseUrl": url, "name": "Slow", "verify": True}
        elapsed, registered = await _write_during_check(
            client,
            user,
            asked,
            client.post("/v1/admin/agents", json=body, headers=admin.bearer_headers),
        )
    assert registered.status_code == 201, registered.text
    assert registered.json()["data"]["status"] == "VERIFIED"
    assert elapsed < UNDELAYED_SECONDS, f"an unrelated write waited {elapsed:.2f} s"


async def test_a_slow_verification_check_does_not_delay_other_writes(
    client: httpx2.AsyncClient, admin: TestUser, make_user: MakeUser
) -> None:
    user = await make_user()
    with slow_agent(CHECK_SECONDS) as (url, asked):
        registered = await client.post(
            "/v1/admin/agents", json={"baseUrl": url, "name": "Slow"}, headers=admin.bearer_headers
        )
        assert registered.status_code == 201, registered.text
        assert registered.json()["data"]["status"] == "PENDING"
        agent_id = registered.json()["data"]["id"]
        elapsed, verified = await _write_during_check(
            client,
            user,
            asked,
            client.post(f"/v1/admin/agents/{agent_id}/verify", headers=admin.bearer_headers),
        )
    assert verified.status_code == 200, verified.text
    assert verified.json()["data"]["status"] == "VERIFIED"
    assert elapsed < UNDELAYED_SECONDS, f"an unrelated write waited {elapsed:.2f} s"
