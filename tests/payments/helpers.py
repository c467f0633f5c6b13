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
from agora.dispatch.worker import Dispatcher
from agora.kit.db import Database
from agora.kit.money import to_base
from agora.kit.outbound import OutboundPolicy
from agora.payments.backend import payment_backend
from agora.sandbox.payment_node import PaymentNode
from agora.sandbox.protocol import Behaviour
from agora.sandbox.seller import SellerConfig, build_seller_app
from agora.settings import Settings
from tests.conftest import MakeUser, TestUser
from tests.jobs.helpers import create, dispatcher, echo, job
from tests.support.agents import LoopbackAgents

TOKEN = "node-test-token"
CHAIN_DELAY_MS = 150  # the local node's chain delay in tests (non-zero: nothing lands at once)
HOUR_MS = 3_600_000
JobCheck = Callable[[dict[str, Any]], bool]


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
    until: JobCheck,
    *,
    max_seconds: float = 15.0,
    settings: Settings | None = None,
) -> dict[str, Any]:
    """Advance the dispatcher until the job (read over HTTP) satisfies ``until``."""
    d = (
        Dispatcher(
            app.state.db, app.state.agent_client, settings, payments=payment_backend(settings)
        )
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


def status(name: str) -> JobCheck:
    """The job's status is ``name``."""
    return lambda j: bool(j["status"] == name)


def on_chain(name: str) -> JobCheck:
    """The job's onChainStatus is ``name``."""
    return lambda j: bool(j["onChainStatus"] == name)


def settled(j: dict[str, Any]) -> bool:
    """The job's payment is settled on chain."""
    return bool(j["jobStatusSettled"])


@dataclass
class PaidJob:
    """One paid job as its buyer sees it over HTTP; ``until`` drives the dispatcher."""

    app: FastAPI
    client: httpx2.AsyncClient
    user: TestUser
    id: str
    created: dict[str, Any]  # the data of the 201 that created it

    async def until(self, check: JobCheck, *, settings: Settings | None = None) -> dict[str, Any]:
        return await drive(
            self.app, self.client, self.user.key_headers, self.id, check, settings=settings
        )

    async def read(self) -> dict[str, Any]:
        """``GET /v1/jobs/{id}`` as the buyer: the job's data."""
        return await job(self.client, self.user.key_headers, self.id)

    async def post(self, action: str) -> httpx2.Response:
        """``POST /v1/jobs/{id}/{action}`` as the buyer (``refund``, ``cancel``)."""
        return await self.client.post(f"/v1/jobs/{self.id}/{action}", headers=self.user.key_headers)

    async def credits(self) -> dict[str, Any]:
        return await credits(self.client, self.user.key_headers)

    async def events(self) -> list[dict[str, Any]]:
        return await events(self.client, self.user.key_headers, self.id)

    async def event_types(self) -> list[str]:
        return [e["type"] for e in await self.events()]

    def kinds(self, account: dict[str, Any]) -> list[str]:
        """The kinds of this job's ledger entries in a ``credits()`` answer, sorted."""
        return sorted(e["kind"] for e in account["entries"] if e["jobId"] == self.id)


@dataclass
class PaidJobs:
    """``await paid_job(**seller_knobs)``: a Masumi seller agent on the node, registered, and a
    job created on it by a buyer (a new one with 10 credits unless ``user`` is given)."""

    app: FastAPI
    client: httpx2.AsyncClient
    make_user: MakeUser
    agents_server: LoopbackAgents
    node: Node

    async def __call__(
        self,
        *,
        user: TestUser | None = None,
        behaviour: Behaviour | None = None,
        **knobs: Any,
    ) -> PaidJob:
        buyer = user or await self.make_user(credits=to_base(10))
        agent_id = await register_seller(
            self.app, self.agents_server, self.node, behaviour=behaviour, **knobs
        )
        created = await create(self.client, buyer.key_headers, agent_id)
        assert created.status_code == 201, created.text
        data: dict[str, Any] = created.json()["data"]
        return PaidJob(self.app, self.client, buyer, str(data["id"]), data)
