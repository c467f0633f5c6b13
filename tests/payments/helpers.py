"""Paid jobs through the local payment node: the node and Masumi seller agents are real HTTP
apps on the loopback server; the dispatcher is driven directly; the node's clock is moved
through its testing route."""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import httpx2
from fastapi import FastAPI
from starlette.types import ASGIApp

from agora.agents import service as agents
from agora.demo_agents.protocol import Behaviour
from agora.demo_agents.seller import SellerConfig, build_seller_app
from agora.dispatch.worker import Dispatcher
from agora.kit.db import Database
from agora.kit.outbound import OutboundPolicy
from agora.payments.node import PaymentNode
from agora.settings import Settings
from tests.jobs.helpers import dispatcher, echo, job
from tests.support.agents import LoopbackAgents

TOKEN = "node-test-token"
HOUR_MS = 3_600_000


@dataclass
class Node:
    node: PaymentNode
    url: str  # up to /api/v1

    async def post(self, path: str, body: dict[str, Any]) -> httpx2.Response:
        async with httpx2.AsyncClient(timeout=5) as client:
            return await client.post(f"{self.url}{path}", json=body, headers={"token": TOKEN})

    async def advance(self, ms: int) -> None:
        response = await self.post("/testing/clock", {"advanceMs": ms})
        assert response.status_code == 200, response.text

    async def chain(self, **body: Any) -> None:
        response = await self.post("/testing/chain", body)
        assert response.status_code == 200, response.text


async def register_seller(
    app: FastAPI,
    agents_server: LoopbackAgents,
    node: Node,
    *,
    behaviour: Behaviour | None = None,
    price: float = 2,
    agent_identifier: str | None = None,
    **knobs: Any,
) -> str:
    seller = SellerConfig(
        node_url=node.url,
        token=TOKEN,
        agent_identifier=agent_identifier or f"agent{uuid.uuid4().hex}",
        # the seller reaches the loopback node only through the tests' outbound allowance
        policy=OutboundPolicy.from_setting(app.state.settings.outbound_allow),
        **knobs,
    )
    seller_app = build_seller_app(behaviour or echo(), seller)
    return await register_mounted(app, agents_server, "seller", seller_app, "Paid Echo", price)


async def register_mounted(
    app: FastAPI,
    agents_server: LoopbackAgents,
    prefix: str,
    agent_app: ASGIApp,
    name: str,
    price: float,
) -> str:
    """Mount an agent app on the loopback server, probe it and register it verified: its id."""
    path = agents_server.host.mount(f"{prefix}-{uuid.uuid4().hex[:8]}", agent_app)
    db: Database = app.state.db
    probe = await agents.probe(app.state.agent_client, f"{agents_server.base_url}{path}")
    async with db.transaction() as session:
        agent = await agents.register_agent(
            session,
            app.state.settings,
            probe,
            name=name,
            price=price,
            verify=True,
        )
    return str(agent.id)


async def drive(
    app: FastAPI,
    client: httpx2.AsyncClient,
    headers: dict[str, str],
    job_id: str,
    until: Callable[[dict[str, Any]], bool],
    *,
    max_seconds: float = 15.0,
    settings: Settings | None = None,
) -> dict[str, Any]:
    """Advance the dispatcher until the job (read over HTTP) satisfies ``until``."""
    d = (
        Dispatcher(app.state.db, app.state.agent_client, settings)
        if settings is not None
        else dispatcher(app)
    )
    deadline = time.monotonic() + max_seconds
    while True:
        await d.run_once()
        current = await job(client, headers, job_id)
        if until(current):
            return current
        if time.monotonic() > deadline:
            raise AssertionError(f"job never reached the expected state: {current}")
        await asyncio.sleep(0.02)


async def events(
    client: httpx2.AsyncClient, headers: dict[str, str], job_id: str
) -> list[dict[str, Any]]:
    response = await client.get(f"/v1/jobs/{job_id}/events", headers=headers)
    assert response.status_code == 200, response.text
    data: list[dict[str, Any]] = response.json()["data"]
    return data


async def credits(client: httpx2.AsyncClient, headers: dict[str, str]) -> dict[str, Any]:
    response = await client.get("/v1/credits", headers=headers)
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()["data"]
    return data
