"""Operators: the admin API (register, verify, revoke, categories), verification lifecycle."""

from __future__ import annotations

import uuid
from datetime import timedelta

import httpx2
from fastapi import FastAPI
from sqlalchemy import select, update

from agora.agents import service
from agora.agents.worker import check_availability
from agora.kit.db import Database
from agora.kit.timeutil import utcnow
from agora.models import Agent
from tests.agents.conftest import RegisterAgent
from tests.conftest import MakeUser, TestUser
from tests.support.agents import LoopbackAgents


async def test_admin_registers_verifies_and_revokes(
    client: httpx2.AsyncClient, admin: TestUser, echo_url: str, db: Database
) -> None:
    created = await client.post(
        "/v1/admin/categories", json={"slug": "text", "name": "Text"}, headers=admin.bearer_headers
    )
    assert created.status_code == 201, created.text
    response = await client.post(
        "/v1/admin/agents",
        json={"baseUrl": echo_url + "/", "name": " Echo ", "price": "1.5", "categories": ["text"]},
        headers=admin.bearer_headers,
    )
    assert response.status_code == 201, response.text
    agent = response.json()["data"]
    assert agent["status"] == "PENDING"
    assert agent["name"] == "Echo"
    assert agent["categories"] == [{"slug": "text", "name": "Text"}]
    async with db.transaction() as session:
        row = await session.get(Agent, uuid.UUID(agent["id"]))
        assert row is not None
        assert row.base_url == echo_url  # trailing slash dropped
        assert row.input_schema is not None

    verified = await client.post(
        f"/v1/admin/agents/{agent['id']}/verify", headers=admin.bearer_headers
    )
    assert verified.json()["data"]["status"] == "VERIFIED"
    listed = (await client.get("/v1/agents")).json()["data"]
    assert [a["id"] for a in listed] == [agent["id"]]

    revoked = await client.post(
        f"/v1/admin/agents/{agent['id']}/revoke", headers=admin.bearer_headers
    )
    assert revoked.json()["data"]["status"] == "REVOKED"
    assert (await client.get("/v1/agents")).json()["data"] == []
    hidden = await client.get(f"/v1/admin/agents/{agent['id']}", headers=admin.bearer_headers)
    assert hidden.json()["data"]["status"] == "REVOKED"


async def test_registration_refuses_what_is_not_an_agent(
    client: httpx2.AsyncClient, admin: TestUser, agents_server: LoopbackAgents
) -> None:
    cases = {
        "ftp://127.0.0.1/agent": "http(s)",
        f"{agents_server.base_url}/no-such-agent": "does not speak MIP-003",
        "http://127.0.0.1:9/closed-port": "does not speak MIP-003",
    }
    for url, reason in cases.items():
        response = await client.post(
            "/v1/admin/agents", json={"baseUrl": url, "name": "X"}, headers=admin.bearer_headers
        )
        assert response.status_code == 400, url
        detail = response.json()["details"][0]
        assert detail["field"] == "baseUrl"
        assert reason in detail["reason"], detail


async def test_only_admin_keys_operate_the_catalogue(
    client: httpx2.AsyncClient, make_user: MakeUser, echo_url: str
) -> None:
    user = await make_user()
    response = await client.post(
        "/v1/admin/agents", json={"baseUrl": echo_url, "name": "X"}, headers=user.bearer_headers
    )
    assert response.status_code == 404
    anonymous = await client.post("/v1/admin/agents", json={"baseUrl": echo_url, "name": "X"})
    assert anonymous.status_code == 401


async def test_failed_checks_expire_a_verification(
    app: FastAPI, db: Database, register_agent: RegisterAgent, agents_server: LoopbackAgents
) -> None:
    settings = app.state.settings
    healthy = await register_agent(name="Healthy")
    gone = await register_agent(name="Gone")
    async with db.transaction() as session:  # the agent's service disappears
        await session.execute(
            update(Agent)
            .where(Agent.id == gone.id)
            .values(base_url=f"{agents_server.base_url}/vanished")
        )
    for round_number in range(settings.catalogue.availability_failures_to_expire):
        counts = await check_availability(db, app.state.agent_client, settings)
        assert counts["failed"] == 1
        assert counts["expired"] == (
            1 if round_number == settings.catalogue.availability_failures_to_expire - 1 else 0
        )
    async with db.transaction() as session:
        statuses = {n: s for n, s in (await session.execute(select(Agent.name, Agent.status)))}
    assert statuses == {"Healthy": "VERIFIED", "Gone": "EXPIRED"}
    assert healthy.status == "VERIFIED"


async def test_verification_lifetime_lapses(
    app: FastAPI, db: Database, register_agent: RegisterAgent
) -> None:
    agent = await register_agent()
    async with db.transaction() as session:
        await session.execute(
            update(Agent)
            .where(Agent.id == agent.id)
            .values(verification_expires_at=utcnow() - timedelta(seconds=1))
        )
    counts = await check_availability(db, app.state.agent_client, app.state.settings)
    assert counts["expired"] == 1
    async with db.transaction() as session:
        assert (await session.get(Agent, agent.id)).status == "EXPIRED"  # type: ignore[union-attr]
    # Verifying again brings it back, after a live check.
    probe = await service.probe(app.state.agent_client, agent.base_url)
    async with db.transaction() as session:
        again = await service.verify_agent(session, app.state.settings, str(agent.id), probe)
        assert again.status == "VERIFIED"
        assert again.consecutive_failures == 0
