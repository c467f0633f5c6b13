"""Per-job webhooks: `webhook` and `webhookEventsFilter` at creation (REST and MCP), signed with
the Standard Webhooks scheme (verified by the `standardwebhooks` package), retried, logged per
job, redelivered on request; a rolled-back change sends nothing."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import httpx2
import pytest
from fastapi import FastAPI
from standardwebhooks import Webhook, WebhookVerificationError

from agora.jobs import lifecycle
from agora.kit.db import Database
from agora.kit.ids import parse_uuid
from agora.models import Job
from agora.notifications.worker import NotificationSender
from tests.conftest import MakeUser, TestUser
from tests.jobs.helpers import create, dispatcher, echo, register, reviewer
from tests.notifications.test_webhooks import Receiver, _serve
from tests.support.agents import LoopbackAgents


async def drain(sender: NotificationSender, done: Any, seconds: float = 5.0) -> None:
    deadline = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < deadline, "timed out"
        await sender.run_once()
        await asyncio.sleep(0.02)


async def job_log(
    client: httpx2.AsyncClient, headers: dict[str, str], job_id: str
) -> list[dict[str, Any]]:
    answer = await client.get(
        "/v1/notifications/deliveries", params={"jobId": job_id}, headers=headers
    )
    assert answer.status_code == 200, answer.text
    found: list[dict[str, Any]] = answer.json()["data"]
    return found


async def test_filtered_job_webhook_gets_one_verified_delivery_and_redelivery(
    app: FastAPI, client: httpx2.AsyncClient, make_user: MakeUser, agents_server: LoopbackAgents
) -> None:
    receiver = Receiver()
    url = _serve(agents_server, receiver)
    agent_id = await register(app, agents_server, echo())
    user = await make_user()
    created = await create(
        client,
        user.key_headers,
        agent_id,
        {"inputData": {"text": "hi"}, "webhook": url, "webhookEventsFilter": ["completed"]},
    )
    assert created.status_code == 201, created.text
    job_id = created.json()["data"]["id"]
    await dispatcher(app).run_until_idle(5)  # PENDING → RUNNING → COMPLETED
    sender = NotificationSender(app.state.db, app.state.settings)
    try:
        await drain(sender, lambda: receiver.calls)
        await sender.run_once()
    finally:
        await sender.stop()
    [(headers, body)] = receiver.calls  # exactly one: the filter kept "completed" only
    secret = (
        await client.get("/v1/notifications/signing-secret", headers=user.key_headers)
    ).json()["data"]["secret"]
    verified = Webhook(secret).verify(body, headers)
    assert verified["event"] == "job.completed"
    assert verified["data"]["jobId"] == job_id and verified["data"]["status"] == "COMPLETED"
    with pytest.raises(WebhookVerificationError):
        Webhook(secret).verify(body.replace(b"COMPLETED", b"FAILED"), headers)
    [logged] = await job_log(client, user.key_headers, job_id)
    assert (logged["channel"], logged["state"], logged["attempts"]) == (
        "job_webhook",
        "delivered",
        1,
    )
    assert headers["webhook-id"] == logged["id"]

    again = await client.post(
        f"/v1/notifications/deliveries/{logged['id']}/redeliver", headers=user.key_headers
    )
    assert again.status_code == 200, again.text
    sender = NotificationSender(app.state.db, app.state.settings)
    try:
        await drain(sender, lambda: len(receiver.calls) == 2)
    finally:
        await sender.stop()
    second_headers, second_body = receiver.calls[1]
    assert json.loads(second_body) == json.loads(body)
    assert second_headers["webhook-id"] == again.json()["data"]["id"] != headers["webhook-id"]
    Webhook(secret).verify(second_body, second_headers)
    other = await make_user()
    foreign = await client.post(
        f"/v1/notifications/deliveries/{logged['id']}/redeliver", headers=other.key_headers
    )
    assert foreign.status_code == 404


async def test_a_receiver_failing_three_times_gets_the_fourth_attempt(
    app: FastAPI, client: httpx2.AsyncClient, make_user: MakeUser, agents_server: LoopbackAgents
) -> None:
    receiver = Receiver(failures=3)
    agent_id = await register(app, agents_server, echo())
    user = await make_user()
    created = await create(
        client,
        user.key_headers,
        agent_id,
        {
            "inputData": {"text": "hi"},
            "webhook": _serve(agents_server, receiver),
            "webhookEventsFilter": ["completed"],
        },
    )
    job_id = created.json()["data"]["id"]
    await dispatcher(app).run_until_idle(5)
    settings = app.state.settings.with_changes(notification_retry_schedule_seconds=[0.01] * 4)
    sender = NotificationSender(app.state.db, settings)
    try:
        await drain(sender, lambda: len(receiver.calls) == 4)
    finally:
        await sender.stop()
    [logged] = await job_log(client, user.key_headers, job_id)
    assert (logged["state"], logged["attempts"], logged["lastStatusCode"]) == ("delivered", 4, 200)
    assert len({h["webhook-id"] for h, _ in receiver.calls}) == 1  # one message, retried


async def test_webhook_fields_are_validated_and_a_rolled_back_change_sends_nothing(
    app: FastAPI, client: httpx2.AsyncClient, make_user: MakeUser, agents_server: LoopbackAgents
) -> None:
    agent_id = await register(app, agents_server, reviewer())
    user = await make_user()
    for body, field in [
        ({"webhook": "ftp://x"}, "webhook"),
        ({"webhook": "http://10.0.0.1/hook"}, "webhook"),
        (
            {"webhook": "https://example.com/h", "webhookEventsFilter": ["done"]},
            "webhookEventsFilter",
        ),
        ({"webhookEventsFilter": ["completed"]}, "webhookEventsFilter"),
    ]:
        refused = await create(
            client, user.key_headers, agent_id, {"inputData": {"text": "a"}, **body}
        )
        assert refused.status_code == 400, (body, refused.text)
        assert refused.json()["details"][0]["field"] == field, refused.text

    receiver = Receiver()
    created = await create(
        client,
        user.key_headers,
        agent_id,
        {"inputData": {"text": "a"}, "webhook": _serve(agents_server, receiver),
         "webhookEventsFilter": ["failed"]},
    )  # fmt: skip
    job_id = created.json()["data"]["id"]
    await dispatcher(app).run_until_idle(5)  # waits for input: no "failed" yet
    db: Database = app.state.db

    class Abort(Exception):
        pass

    async def fail_then_abort() -> None:
        async with db.transaction() as session:
            job = await session.get(Job, parse_uuid(job_id))
            assert job is not None
            assert await lifecycle.transition(session, job, lifecycle.FAILED)
            raise Abort

    with pytest.raises(Abort):
        await fail_then_abort()
    assert await job_log(client, user.key_headers, job_id) == []
    sender = NotificationSender(app.state.db, app.state.settings)
    try:
        await sender.run_once()
    finally:
        await sender.stop()
    assert receiver.calls == []


async def test_reading_the_signing_secret_needs_what_rotating_it_needs(
    client: httpx2.AsyncClient, make_user: MakeUser, admin: TestUser
) -> None:
    user = await make_user()
    rotated = await client.post("/v1/notifications/signing-secret", headers=user.key_headers)
    assert rotated.status_code == 200, rotated.text
    secret = rotated.json()["data"]["secret"]
    keys = {}
    for scopes in (["read"], ["read", "profile:write"]):
        made = await client.post(
            "/v1/api-keys",
            json={"name": "-".join(scopes), "scopes": scopes},
            headers=user.key_headers,
        )
        assert made.status_code == 201, made.text
        keys[scopes[-1]] = {"x-api-key": made.json()["data"]["key"]}
    for method in ("GET", "POST"):  # a read-only key neither reads nor rotates it
        refused = await client.request(
            method, "/v1/notifications/signing-secret", headers=keys["read"]
        )
        assert refused.status_code == 403, refused.text
        assert refused.json()["error"] == "Forbidden"  # the key family's scope error
        assert "profile:write" in refused.json()["message"]
    read = await client.get("/v1/notifications/signing-secret", headers=keys["profile:write"])
    assert (read.status_code, read.json()["data"]["secret"]) == (200, secret)
    # An admin key holds every permission: it rotates and reads its own user's secret.
    made = await client.post("/v1/notifications/signing-secret", headers=admin.key_headers)
    own = await client.get("/v1/notifications/signing-secret", headers=admin.key_headers)
    assert (own.status_code, own.json()["data"]["secret"]) == (200, made.json()["data"]["secret"])
