"""Hiring an A2A agent (docs/a2a.md): a real agent built with ``a2a-sdk``'s server on loopback
(tests/support/a2a_agent.py) is submitted by its Agent Card, approved, hired over REST; it asks
for input, gets the person's answer as the next message of the same task, streams an artifact
(a text part and a file part); the job ends COMPLETED with the result and the stored file, the
credits charged once. A cancel reaches the agent as ``tasks/cancel``. On SQLite and PostgreSQL,
with a streaming card and with one that does not stream (then ``tasks/get``)."""

from __future__ import annotations

import uuid
from typing import Any

import httpx2
import pytest
from fastapi import FastAPI

from agora.files.worker import OutputCollector
from agora.kit.money import to_base
from agora.models import Agent
from agora.settings import Settings
from tests.conftest import MakeUser, TestUser
from tests.jobs.helpers import dispatcher, job
from tests.support.a2a_agent import REPORT, painter_agent
from tests.web.test_pages import _sign_up_in


async def _submit_and_approve(
    client: httpx2.AsyncClient, developer: TestUser, admin: TestUser, card_url: str, token: str
) -> dict[str, Any]:
    created = await client.post(
        "/v1/developer/agents/a2a",
        json={"agentCardUrl": card_url, "credential": token, "price": 2},
        headers=developer.bearer_headers,
    )
    assert created.status_code == 201, created.text
    agent: dict[str, Any] = created.json()["data"]
    assert token not in created.text  # the credential is never shown
    assert agent["status"] == "PENDING"
    assert agent["name"] == "Painter"  # from the card
    approved = await client.post(
        f"/v1/admin/agents/{agent['id']}/approve",
        json={"reason": "ok"},
        headers=admin.bearer_headers,
    )
    assert approved.status_code == 200, approved.text
    assert approved.json()["data"]["status"] == "VERIFIED"
    assert token not in approved.text
    return agent


async def _balance(client: httpx2.AsyncClient, user: TestUser) -> float:
    answer = await client.get("/v1/credits", headers=user.key_headers)
    assert answer.status_code == 200, answer.text
    return float(answer.json()["data"]["balance"])


@pytest.mark.parametrize("streaming", [True, False], ids=["streaming", "polling"])
async def test_a2a_agent_is_submitted_hired_asks_and_completes(
    client: httpx2.AsyncClient,
    app: FastAPI,
    make_user: MakeUser,
    admin: TestUser,
    streaming: bool,
) -> None:
    developer = await make_user(name="Dev")
    buyer = await make_user(name="Buyer", credits=to_base(100))
    with painter_agent(streaming=streaming) as painter:
        card_url = f"{painter.base_url}/.well-known/agent-card.json"
        agent = await _submit_and_approve(client, developer, admin, card_url, painter.token)
        agent_id = agent["id"]

        listed = await client.get(f"/v1/agents/{agent_id}/input-schema")
        assert listed.status_code == 200, listed.text
        fields = {f["id"]: f for f in listed.json()["data"]["input_data"]}
        assert set(fields) == {"text", "skill"}
        assert fields["skill"]["data"]["values"] == ["paint", "sketch"]

        before = await _balance(client, buyer)
        hired = await client.post(
            f"/v1/agents/{agent_id}/jobs",
            json={"inputData": {"text": "a cat", "skill": "paint"}},
            headers=buyer.key_headers,
        )
        assert hired.status_code == 201, hired.text
        job_id = hired.json()["data"]["id"]
        await dispatcher(app).run_until_idle(10)

        asked = await job(client, buyer.key_headers, job_id)
        assert asked["status"] == "INPUT_REQUIRED", asked
        request = await client.get(f"/v1/jobs/{job_id}/input-request", headers=buyer.key_headers)
        assert request.status_code == 200, request.text
        assert request.json()["data"]["message"] == "Which colour?"

        answered = await client.post(
            f"/v1/jobs/{job_id}/inputs",
            json={"inputData": {"text": "blue"}},
            headers=buyer.key_headers,
        )
        assert answered.status_code == 200, answered.text
        await dispatcher(app).run_until_idle(10)

        done = await job(client, buyer.key_headers, job_id)
        assert done["status"] == "COMPLETED", done
        assert "Painted in blue" in done["result"]
        assert f"{painter.base_url}/files/report.txt" in done["result"]
        # the same task and context; the skill chosen at hire travelled with the first message
        assert painter.messages == [("a cat", "paint"), ("blue", None)]
        assert set(painter.auth_seen) == {f"Bearer {painter.token}"}

        assert await OutputCollector(app.state.db, app.state.settings).run_once() == 1
        files = await client.get(f"/v1/jobs/{job_id}/files", headers=buyer.key_headers)
        assert files.status_code == 200, files.text
        [stored] = [f for f in files.json()["data"] if f["source"] == "result"]
        assert stored["name"] == "report.txt"
        assert stored["status"] == "STORED"
        assert stored["size"] == len(REPORT)

    # charged once: the price and the marketplace fee
    assert await _balance(client, buyer) == pytest.approx(before - 2.1)


async def test_a_cancel_reaches_the_a2a_agent(
    client: httpx2.AsyncClient, app: FastAPI, make_user: MakeUser, admin: TestUser
) -> None:
    developer = await make_user(name="Dev")
    buyer = await make_user(name="Buyer", credits=to_base(100))
    with painter_agent() as painter:
        card_url = f"{painter.base_url}/.well-known/agent-card.json"
        agent = await _submit_and_approve(client, developer, admin, card_url, painter.token)
        before = await _balance(client, buyer)
        hired = await client.post(
            f"/v1/agents/{agent['id']}/jobs",
            json={"inputData": {"text": "wait"}},
            headers=buyer.key_headers,
        )
        assert hired.status_code == 201, hired.text
        job_id = hired.json()["data"]["id"]
        await dispatcher(app).run_once()  # the stream is followed for the call's time limit
        running = await job(client, buyer.key_headers, job_id)
        assert running["status"] == "RUNNING", running
        task_id = running["agentJobId"]
        assert task_id

        cancelled = await client.post(f"/v1/jobs/{job_id}/cancel", headers=buyer.key_headers)
        assert cancelled.status_code == 200, cancelled.text
        assert painter.cancelled == []
        await dispatcher(app).run_until_idle(10)
        assert painter.cancelled == [task_id]
        await dispatcher(app).run_until_idle(10)  # once only
        assert painter.cancelled == [task_id]

    final = await job(client, buyer.key_headers, job_id)
    assert final["status"] == "CANCELLED"
    assert await _balance(client, buyer) == pytest.approx(before)  # refunded
    events = await client.get(f"/v1/jobs/{job_id}/events", headers=buyer.key_headers)
    assert "a2a_cancel_sent" in [e["type"] for e in events.json()["data"]]


async def test_the_credential_is_sealed_and_a_bad_card_is_a_400(
    client: httpx2.AsyncClient, app: FastAPI, make_user: MakeUser, admin: TestUser
) -> None:
    developer = await make_user(name="Dev")
    with painter_agent() as painter:
        agent = await _submit_and_approve(
            client,
            developer,
            admin,
            f"{painter.base_url}/.well-known/agent-card.json",
            painter.token,
        )
        async with app.state.db.transaction(write=False) as session:
            row = await session.get(Agent, uuid.UUID(agent["id"]))
            assert row is not None
            assert row.protocol == "a2a"
            assert row.a2a_credential is not None
            assert painter.token not in row.a2a_credential  # sealed at rest
            assert row.a2a_card is not None and row.a2a_card["name"] == "Painter"
        shown = await client.get(
            f"/v1/developer/agents/{agent['id']}", headers=developer.bearer_headers
        )
        assert shown.status_code == 200 and painter.token not in shown.text

        for url in (
            f"{painter.base_url}/files/report.txt",
            f"{painter.base_url}/nothing",
            "ftp://x/card",
        ):
            refused = await client.post(
                "/v1/developer/agents/a2a",
                json={"agentCardUrl": url},
                headers=developer.bearer_headers,
            )
            assert refused.status_code == 400, refused.text
            assert refused.json()["details"][0]["field"] == "agentCardUrl"

        # an A2A agent's card URL does not change by an edit
        moved = await client.patch(
            f"/v1/developer/agents/{agent['id']}",
            json={"baseUrl": f"{painter.base_url}/other"},
            headers=developer.bearer_headers,
        )
        assert moved.status_code == 400, moved.text
        assert moved.json()["details"][0]["field"] == "baseUrl"


async def test_the_developer_page_submits_an_a2a_agent_by_its_card(
    client: httpx2.AsyncClient, app: FastAPI, settings: Settings
) -> None:
    """The web form (``/developer/new-a2a``): every problem at once, a card that fails the A2A
    check named on its field, then a submission whose credential is sealed and never shown."""
    csrf = await _sign_up_in(client, settings, "painter-dev@example.com")
    listing = await client.get("/developer")
    assert 'href="/developer/new-a2a"' in listing.text
    form = await client.get("/developer/new-a2a")
    assert form.status_code == 200 and 'id="a2a-form"' in form.text
    with painter_agent() as painter:
        empty = await client.post(
            "/developer/new-a2a", data={"csrf": csrf, "agentCardUrl": "", "price": "1"}
        )
        assert empty.status_code == 400
        assert 'id="err-agentCardUrl"' in empty.text and "Agent Card URL is required" in empty.text
        not_a_card = await client.post(
            "/developer/new-a2a",
            data={"csrf": csrf, "agentCardUrl": f"{painter.base_url}/nothing", "price": "1"},
        )
        assert not_a_card.status_code == 400
        assert "failed the A2A check" in not_a_card.text
        sent = await client.post(
            "/developer/new-a2a",
            data={
                "csrf": csrf,
                "agentCardUrl": f"{painter.base_url}/.well-known/agent-card.json",
                "credential": painter.token,
                "tags": "art, colour",
                "price": "2",
            },
        )
        assert sent.status_code == 303, sent.text
        page = await client.get(sent.headers["location"])
        assert page.status_code == 200 and "<h1>Painter</h1>" in page.text
        assert "PENDING" in page.text and painter.token not in page.text
    agent_id = sent.headers["location"].split("/developer/")[1].split("?")[0]
    async with app.state.db.transaction(write=False) as session:
        row = await session.get(Agent, uuid.UUID(agent_id))
        assert (
            row is not None
            and row.protocol == "a2a"
            and [t["name"] for t in row.tags] == ["art", "colour"]
        )
        assert row.a2a_credential and painter.token not in row.a2a_credential
