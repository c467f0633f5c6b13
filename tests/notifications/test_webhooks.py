"""Job status notifications through a signed webhook: opt-in, signature, retries, delivery log."""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import uuid
from typing import Any

import httpx2
from fastapi import FastAPI
from standardwebhooks import Webhook
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from agora.notifications.worker import NotificationSender
from tests.conftest import MakeUser
from tests.jobs.helpers import create, dispatcher, echo, register
from tests.support.agents import LoopbackAgents


class Receiver:
    """A real HTTP endpoint that fails the first ``failures`` calls, then records bodies."""

    def __init__(self, failures: int = 0) -> None:
        self.failures = failures
        self.calls: list[tuple[dict[str, str], bytes]] = []

    def app(self) -> Starlette:
        async def hook(request: Request) -> Response:
            body = await request.body()
            self.calls.append((dict(request.headers), body))
            if len(self.calls) <= self.failures:
                return JSONResponse({"detail": "try later"}, status_code=503)
            return JSONResponse({"ok": True})

        return Starlette(routes=[Route("/in", hook, methods=["POST"])])


def _serve(agents_server: LoopbackAgents, receiver: Receiver) -> str:
    path = agents_server.host.mount(f"hook-{uuid.uuid4().hex[:8]}", receiver.app())
    return f"{agents_server.base_url}{path}/in"


async def test_opted_in_user_gets_signed_notifications_for_each_status(
    app: FastAPI, client: httpx2.AsyncClient, make_user: MakeUser, agents_server: LoopbackAgents
) -> None:
    receiver = Receiver(failures=1)
    agent_id = await register(app, agents_server, echo())
    user = await make_user()
    setup = await client.put(
        "/v1/notifications/webhook",
        json={"url": _serve(agents_server, receiver)},
        headers=user.key_headers,
    )
    assert setup.status_code == 200, setup.text
    secret = setup.json()["data"]["secret"]
    assert secret.startswith("whsec_")
    assert (await client.get("/v1/notifications/webhook", headers=user.key_headers)).json()["data"][
        "secret"
    ] is None

    # Not opted in yet: nothing is queued.
    await create(client, user.key_headers, agent_id)
    await dispatcher(app).run_until_idle(5)
    log = await client.get("/v1/notifications/deliveries", headers=user.key_headers)
    assert log.json()["data"] == []

    opt_in = await client.patch(
        "/v1/users/me", json={"jobStatusNotificationsOptIn": True}, headers=user.key_headers
    )
    assert opt_in.status_code == 200
    job_id = (await create(client, user.key_headers, agent_id)).json()["data"]["id"]
    await dispatcher(app).run_until_idle(5)
    sender = NotificationSender(app.state.db, app.state.settings)
    try:
        for _ in range(50):
            await sender.run_once()
            log = (
                await client.get("/v1/notifications/deliveries", headers=user.key_headers)
            ).json()["data"]
            if log and all(d["state"] == "delivered" for d in log):
                break
            import asyncio

            await asyncio.sleep(0.02)
    finally:
        await sender.stop()
    statuses = sorted(d["payload"]["data"]["status"] for d in log)
    assert statuses == ["COMPLETED", "RUNNING"]
    assert all(d["jobId"] == job_id and d["state"] == "delivered" for d in log), log
    assert sorted(d["attempts"] for d in log) == [1, 2]  # the first call got a 503, then retried
    assert any(d["lastStatusCode"] == 200 for d in log)

    headers, body = receiver.calls[-1]
    timestamp, _, signature = headers["x-agora-signature"].partition(",v1=")
    expected = hmac.new(
        secret.encode(), f"{timestamp.removeprefix('t=')}.".encode() + body, hashlib.sha256
    ).hexdigest()
    assert hmac.compare_digest(signature, expected)
    # The same delivery carries the Standard Webhooks signature (the secret is a whsec_ one).
    assert Webhook(secret).verify(body, headers)["data"]["jobId"] == job_id
    payload: dict[str, Any] = json.loads(body)
    assert payload["event"] == headers["x-agora-event"] == "job.status_changed"
    assert payload["data"]["jobId"] == job_id


async def test_webhook_url_is_validated_and_removable(
    client: httpx2.AsyncClient, make_user: MakeUser
) -> None:
    user = await make_user()
    bad = await client.put(
        "/v1/notifications/webhook", json={"url": "ftp://x"}, headers=user.key_headers
    )
    assert bad.status_code == 400
    assert bad.json()["details"][0]["field"] == "url"
    ok = await client.put(
        "/v1/notifications/webhook", json={"url": "https://example.com/h"}, headers=user.key_headers
    )
    assert ok.json()["data"]["url"] == "https://example.com/h"
    gone = await client.delete("/v1/notifications/webhook", headers=user.key_headers)
    assert gone.json()["data"]["url"] is None


async def test_unreachable_webhook_gives_up_after_bounded_attempts(
    app: FastAPI, client: httpx2.AsyncClient, make_user: MakeUser, agents_server: LoopbackAgents
) -> None:

    agent_id = await register(app, agents_server, echo())
    user = await make_user()
    receiver = Receiver(failures=100)
    await client.put(
        "/v1/notifications/webhook",
        json={"url": _serve(agents_server, receiver)},
        headers=user.key_headers,
    )
    await client.patch(
        "/v1/users/me", json={"jobStatusNotificationsOptIn": True}, headers=user.key_headers
    )
    job_id = (await create(client, user.key_headers, agent_id)).json()["data"]["id"]
    await client.post(f"/v1/jobs/{job_id}/cancel", headers=user.key_headers)
    sender = NotificationSender(app.state.db, app.state.settings)
    try:
        for _ in range(100):
            await sender.run_once()
            log = (
                await client.get("/v1/notifications/deliveries", headers=user.key_headers)
            ).json()["data"]
            if log and log[0]["state"] == "failed":
                break
            await asyncio.sleep(0.02)
    finally:
        await sender.stop()
    assert log[0]["state"] == "failed"
    assert log[0]["attempts"] == 3
    assert log[0]["lastStatusCode"] == 503
    assert len(receiver.calls) == 3
