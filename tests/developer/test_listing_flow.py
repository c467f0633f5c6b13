"""A developer lists an agent through HTTP: submission → review → listed → hired → stats; other
users see 404. On SQLite and PostgreSQL, with a real MIP-003 agent on loopback."""

from __future__ import annotations

from typing import Any

import httpx2
from fastapi import FastAPI

from agora.kit.money import to_base
from tests.conftest import MakeUser, TestUser
from tests.developer.conftest import submission
from tests.jobs.helpers import dispatcher, echo
from tests.support.agents import LoopbackAgents


async def _ids(client: httpx2.AsyncClient, **params: Any) -> list[str]:
    response = await client.get("/v1/agents", params=params)
    assert response.status_code == 200, response.text
    return [a["id"] for a in response.json()["data"]]


async def test_submit_review_hire_and_stats(
    client: httpx2.AsyncClient,
    app: FastAPI,
    agents_server: LoopbackAgents,
    make_user: MakeUser,
    admin: TestUser,
) -> None:
    developer = await make_user(name="Dev")
    buyer = await make_user(name="Buyer", credits=to_base(100))
    url = agents_server.serve(echo())

    created = await client.post(
        "/v1/developer/agents", json=submission(url), headers=developer.bearer_headers
    )
    assert created.status_code == 201, created.text
    agent = created.json()["data"]
    agent_id = agent["id"]
    assert agent["status"] == "PENDING"
    assert agent["review"]["state"] == "pending"
    assert agent["published"]["isShown"] is False
    assert agent["price"] == {"credits": 2.1, "includedFee": 0.1}
    assert agent["exampleOutputs"][0]["mimeType"] == "text/plain"

    # Not listed anywhere while pending, and it cannot be hired.
    assert agent_id not in await _ids(client)
    assert agent_id not in await _ids(client, status="PENDING")
    assert (await client.get(f"/v1/agents/{agent_id}")).status_code == 404
    hire = await client.post(
        f"/v1/agents/{agent_id}/jobs",
        json={"inputData": {"text": "hello"}},
        headers=buyer.key_headers,
    )
    assert hire.status_code == 404

    queue = await client.get(
        "/v1/admin/agents", params={"status": "PENDING"}, headers=admin.bearer_headers
    )
    assert queue.status_code == 200
    assert [a["id"] for a in queue.json()["data"]] == [agent_id]

    approved = await client.post(
        f"/v1/admin/agents/{agent_id}/approve",
        json={"reason": "Looks good"},
        headers=admin.bearer_headers,
    )
    assert approved.status_code == 200, approved.text
    assert approved.json()["data"]["status"] == "VERIFIED"
    assert agent_id in await _ids(client)

    hire = await client.post(
        f"/v1/agents/{agent_id}/jobs",
        json={"inputData": {"text": "hello"}},
        headers=buyer.key_headers,
    )
    assert hire.status_code in (200, 201), hire.text
    await dispatcher(app).run_until_idle(5)
    job = await client.get(f"/v1/jobs/{hire.json()['data']['id']}", headers=buyer.key_headers)
    assert job.json()["data"]["status"] == "COMPLETED"

    stats = await client.get(
        f"/v1/developer/agents/{agent_id}/stats", headers=developer.bearer_headers
    )
    assert stats.status_code == 200, stats.text
    data = stats.json()["data"]
    assert data["status"] == "VERIFIED"
    assert data["review"] == {
        "state": "approved",
        "note": "Looks good",
        "reviewedAt": data["review"]["reviewedAt"],
    }
    assert data["jobs"]["total"] == 1 and data["jobs"]["completed"] == 1
    assert data["failureRate"] == 0
    assert data["p50DurationSeconds"] is not None and data["p50DurationSeconds"] >= 0
    assert data["creditsEarned"] == 2  # the price, without the marketplace fee
    assert [c["kind"] for c in data["availability"]["checks"]] == ["review", "submit"]
    assert data["availability"]["uptime"] == 1
    assert data["lastErrors"] == []

    # Another user: 404 on every developer route of this agent, and it is not in their list.
    other = await make_user(name="Other")
    h = other.bearer_headers
    assert (await client.get(f"/v1/developer/agents/{agent_id}", headers=h)).status_code == 404
    assert (
        await client.get(f"/v1/developer/agents/{agent_id}/stats", headers=h)
    ).status_code == 404
    patch = await client.patch(f"/v1/developer/agents/{agent_id}", json={"name": "X"}, headers=h)
    assert patch.status_code == 404
    assert (await client.delete(f"/v1/developer/agents/{agent_id}", headers=h)).status_code == 404
    mine = await client.get("/v1/developer/agents", headers=h)
    assert mine.json()["data"] == []
    theirs = await client.get("/v1/developer/agents", headers=developer.bearer_headers)
    assert [a["id"] for a in theirs.json()["data"]] == [agent_id]
