"""Webhook delivery against the Standard Webhooks spec (1.0.0, "Deliverability and reliability",
"Delivery success and failure", "Request timeouts"), on a fake clock (no real waits): the retry
schedule spans days with jitter, a receiver down for hours still gets the event (verified with
the `standardwebhooks` package), Retry-After is honoured up to a bound, 410 Gone stops at once
and disables the endpoint, a receiver that stays down ends `failed` with a notice and a mail,
an endpoint failing every delivery for 5 days is disabled, and its owner re-enables it (REST and
the settings page). The receiver is a real HTTP app on loopback; mail goes to aiosmtpd."""

from __future__ import annotations

import json
import uuid
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from email.utils import format_datetime
from typing import Any

import httpx2
from fastapi import FastAPI
from standardwebhooks import Webhook
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from agora.kit.timeutil import parse_isoformat, utcnow
from agora.notifications.worker import NotificationSender
from agora.settings import Settings
from tests.conftest import MakeUser
from tests.jobs.helpers import create, dispatcher, echo, register
from tests.schedules.helpers import Clock
from tests.support.agents import LoopbackAgents
from tests.support.smtp import Inbox, smtp_settings

# The spec's example retry schedule: the waits after each failed attempt (seconds).
SCHEDULE = [5.0, 300.0, 1800.0, 7200.0, 18000.0, 36000.0, 50400.0, 72000.0, 86400.0]
JITTER = 0.1
Answer = Callable[[], tuple[int, dict[str, str]]]


@dataclass
class Receiver:
    """A webhook receiver on loopback whose answer a test chooses (status and headers)."""

    answer: Answer
    calls: list[tuple[dict[str, str], bytes]] = field(default_factory=list)

    def app(self) -> Starlette:
        async def hook(request: Request) -> Response:
            self.calls.append((dict(request.headers), await request.body()))
            status, headers = self.answer()
            return JSONResponse({"status": status}, status_code=status, headers=headers)

        return Starlette(routes=[Route("/in", hook, methods=["POST"])])

    def serve(self, agents_server: LoopbackAgents) -> str:
        path = agents_server.host.mount(f"hook-{uuid.uuid4().hex[:8]}", self.app())
        return f"{agents_server.base_url}{path}/in"


def spec_settings(settings: Settings, **changes: Any) -> Settings:
    """The spec's defaults for notifications (the suite's are fast retries)."""
    return settings.with_changes(
        notification_retry_schedule_seconds=SCHEDULE,
        notification_retry_jitter=JITTER,
        **changes,
    )


async def job_with_webhook(
    app: FastAPI,
    client: httpx2.AsyncClient,
    headers: dict[str, str],
    agent_id: str,
    url: str,
) -> str:
    """A job whose own webhook is told when it completes (one delivery), run to COMPLETED."""
    body = {"inputData": {"text": "hi"}, "webhook": url, "webhookEventsFilter": ["completed"]}
    created = await create(client, headers, agent_id, body)
    assert created.status_code == 201, created.text
    await dispatcher(app).run_until_idle(5)
    return str(created.json()["data"]["id"])


async def delivery_of(
    client: httpx2.AsyncClient, headers: dict[str, str], job_id: str
) -> dict[str, Any]:
    log = await client.get(
        "/v1/notifications/deliveries", params={"jobId": job_id}, headers=headers
    )
    assert log.status_code == 200, log.text
    [delivery] = log.json()["data"]
    return dict(delivery)


async def endpoints_of(client: httpx2.AsyncClient, headers: dict[str, str]) -> list[Any]:
    found = await client.get("/v1/notifications/webhook-endpoints", headers=headers)
    assert found.status_code == 200, found.text
    return list(found.json()["data"])


def due(delivery: dict[str, Any]) -> datetime:
    when = parse_isoformat(delivery["nextAttemptAt"])
    assert when is not None
    return when


async def until_settled(
    sender: NotificationSender,
    clock: Clock,
    client: httpx2.AsyncClient,
    headers: dict[str, str],
    job_id: str,
) -> tuple[dict[str, Any], list[float]]:
    """Run the sender, moving the clock to each next attempt, until the delivery is delivered or
    failed (bounded); returns it and the waits it was given, in seconds. The clock starts no
    earlier than now (the delivery was queued at the real time)."""
    clock.now = max(clock.now, utcnow())
    waits = []
    for _ in range(len(SCHEDULE) + 2):
        await sender.run_once()
        delivery = await delivery_of(client, headers, job_id)
        if delivery["state"] != "pending":
            return delivery, waits
        waits.append((due(delivery) - clock.now).total_seconds())
        clock.now = due(delivery)
    raise AssertionError(f"still pending after the whole schedule: {delivery}")


@dataclass
class World:
    """One test's webhook world: a receiver on loopback, an echo agent, a sender on a fake clock."""

    app: FastAPI
    client: httpx2.AsyncClient
    clock: Clock
    receiver: Receiver
    url: str
    agent_id: str
    sender: NotificationSender

    async def job(self, headers: dict[str, str]) -> str:
        return await job_with_webhook(self.app, self.client, headers, self.agent_id, self.url)

    async def settle(
        self, headers: dict[str, str], job_id: str
    ) -> tuple[dict[str, Any], list[float]]:
        return await until_settled(self.sender, self.clock, self.client, headers, job_id)


@asynccontextmanager
async def webhook_world(
    app: FastAPI,
    client: httpx2.AsyncClient,
    agents_server: LoopbackAgents,
    answer: Answer,
    *,
    settings: Settings | None = None,
    clock: Clock | None = None,
) -> AsyncIterator[World]:
    clock = clock or Clock(utcnow())
    receiver = Receiver(answer)
    url = receiver.serve(agents_server)
    agent_id = await register(app, agents_server, echo())
    sender = NotificationSender(
        app.state.db, settings or spec_settings(app.state.settings), clock=clock
    )
    try:
        yield World(app, client, clock, receiver, url, agent_id, sender)
    finally:
        await sender.stop()


async def test_a_receiver_down_for_six_hours_still_gets_the_event_on_the_spec_schedule(
    app: FastAPI, client: httpx2.AsyncClient, make_user: MakeUser, agents_server: LoopbackAgents
) -> None:
    clock = Clock(utcnow())
    back_at = clock.now + timedelta(hours=6)
    answer: Answer = lambda: (503, {}) if clock.now < back_at else (200, {})  # noqa: E731
    user = await make_user()
    async with webhook_world(app, client, agents_server, answer, clock=clock) as world:
        job_id = await world.job(user.key_headers)
        delivery, waits = await world.settle(user.key_headers, job_id)
    receiver = world.receiver
    # Immediately, 5 s, 5 min, 30 min, 2 h, 5 h: the sixth attempt (7 h 35 min in) gets through.
    assert (delivery["state"], delivery["attempts"], delivery["lastStatusCode"]) == (
        "delivered",
        6,
        200,
    )
    assert len(receiver.calls) == 6
    for wait, planned in zip(waits, SCHEDULE, strict=False):
        assert planned * 0.9 <= wait <= planned * 1.1, (wait, planned)  # ± 10 % jitter
    assert len({round(w / p, 6) for w, p in zip(waits, SCHEDULE, strict=False)}) > 1  # jittered

    secret = (
        await client.get("/v1/notifications/signing-secret", headers=user.key_headers)
    ).json()["data"]["secret"]
    headers, body = receiver.calls[-1]
    assert len({h["webhook-id"] for h, _ in receiver.calls}) == 1  # one message, retried
    payload = Webhook(secret).verify(body, headers)
    # The spec's names, and the old ones for one release (docs/notifications.md).
    assert payload["type"] == payload["event"] == "job.completed"
    assert payload["timestamp"] == payload["createdAt"]
    assert payload["data"]["jobId"] == job_id
    assert json.loads(body) == payload


async def test_the_defaults_are_the_specs_schedule_jitter_and_timeout(app: FastAPI) -> None:
    spec = Settings().notifications
    assert spec.retry_schedule_seconds == SCHEDULE
    assert sum(SCHEDULE) == 75 * 3600 + 35 * 60 + 5  # the table's "Time since start"
    assert spec.retry_jitter == JITTER
    # "Request timeouts": 15 to 30 s; the sender's client waits that long for an answer.
    assert spec.timeout_seconds == 15.0
    sender = NotificationSender(
        app.state.db, Settings(database_url=app.state.settings.database_url)
    )
    try:
        assert sender.client.timeout.read == 15.0
    finally:
        await sender.stop()


async def test_retry_after_on_429_and_503_is_honoured_up_to_its_bound(
    app: FastAPI, client: httpx2.AsyncClient, make_user: MakeUser, agents_server: LoopbackAgents
) -> None:
    in_ten_minutes = format_datetime(utcnow() + timedelta(seconds=600), usegmt=True)
    answers = [
        (429, {"retry-after": "120"}),  # delay-seconds (RFC 9110 §10.2.3)
        (503, {"retry-after": in_ten_minutes}),  # an HTTP-date
        (503, {"retry-after": "999999"}),  # beyond the bound: the bound
        (503, {"retry-after": "1"}),  # sooner than the schedule: the schedule
        (200, {}),
    ]
    settings = spec_settings(app.state.settings, notification_retry_after_max_seconds=7200)
    user = await make_user()
    async with webhook_world(
        app, client, agents_server, lambda: answers.pop(0), settings=settings
    ) as world:
        job_id = await world.job(user.key_headers)
        delivery, waits = await world.settle(user.key_headers, job_id)
    assert (delivery["state"], delivery["attempts"]) == ("delivered", 5)
    assert waits[0] == 120  # not the schedule's 5 s
    assert 590 <= waits[1] <= 600  # until the date given (not 5 min)
    assert waits[2] == 7200  # Retry-After bounded by AGORA_NOTIFICATION_RETRY_AFTER_MAX_SECONDS
    assert 7200 * 0.9 <= waits[3] <= 7200 * 1.1


async def test_410_gone_stops_after_one_attempt_disables_the_endpoint_and_tells_the_owner(
    app: FastAPI,
    client: httpx2.AsyncClient,
    make_user: MakeUser,
    agents_server: LoopbackAgents,
    smtp: tuple[Inbox, int],
) -> None:
    inbox, port = smtp
    status = {"code": 410}
    user = await make_user()
    settings = smtp_settings(spec_settings(app.state.settings), port)
    async with webhook_world(
        app, client, agents_server, lambda: (status["code"], {}), settings=settings
    ) as world:
        url, sender = world.url, world.sender
        gone = await world.job(user.key_headers)
        delivery, _ = await world.settle(user.key_headers, gone)
        assert (delivery["state"], delivery["attempts"], delivery["lastStatusCode"]) == (
            "failed",
            1,
            410,
        )
        [endpoint] = await endpoints_of(client, user.key_headers)
        assert (endpoint["url"], endpoint["enabled"]) == (url, False)
        assert "410 Gone" in endpoint["disabledReason"]

        # The next event for that URL is not sent at all.
        skipped = await world.job(user.key_headers)
        delivery, _ = await world.settle(user.key_headers, skipped)
        assert (delivery["state"], delivery["lastError"]) == ("failed", "endpoint disabled")
        assert len(world.receiver.calls) == 1

        # Told in the inbox and by mail, once.
        notices = (await client.get("/v1/notifications", headers=user.key_headers)).json()
        [notice] = [n for n in notices["data"]["items"] if n["kind"].startswith("webhook.")]
        assert notice["kind"] == "webhook.disabled"
        assert notice["link"] == "/settings/notifications#webhooks"
        await sender.run_once()
        [mail] = inbox.messages
        assert mail["To"] == user.email
        assert str(mail["Subject"]) == f"Webhook endpoint disabled: {agents_server.base_url}"

        # The owner re-enables it: deliveries go out again.
        status["code"] = 200
        enabled = await client.post(
            f"/v1/notifications/webhook-endpoints/{endpoint['id']}/enable",
            headers=user.key_headers,
        )
        assert enabled.status_code == 200, enabled.text
        assert enabled.json()["data"]["enabled"] is True
        assert enabled.json()["data"]["disabledReason"] is None
        back = await world.job(user.key_headers)
        delivery, _ = await world.settle(user.key_headers, back)
        assert (delivery["state"], delivery["attempts"]) == ("delivered", 1)

    other = await make_user()
    stranger = await client.post(
        f"/v1/notifications/webhook-endpoints/{endpoint['id']}/enable", headers=other.key_headers
    )
    assert stranger.status_code == 404
    unknown = await client.post(
        "/v1/notifications/webhook-endpoints/not-an-id/enable", headers=user.key_headers
    )
    assert unknown.status_code == 404


async def test_a_receiver_that_stays_down_fails_the_delivery_then_is_disabled_after_five_days(
    app: FastAPI,
    client: httpx2.AsyncClient,
    make_user: MakeUser,
    agents_server: LoopbackAgents,
    smtp: tuple[Inbox, int],
) -> None:
    inbox, port = smtp
    start = utcnow()
    up = {"now": False}
    user = await make_user()
    settings = smtp_settings(spec_settings(app.state.settings), port)
    async with webhook_world(
        app,
        client,
        agents_server,
        lambda: (200, {}) if up["now"] else (500, {}),
        settings=settings,
        clock=Clock(start),
    ) as world:
        url, sender, clock = world.url, world.sender, world.clock
        first = await world.job(user.key_headers)
        delivery, waits = await world.settle(user.key_headers, first)
        assert (delivery["state"], delivery["attempts"]) == ("failed", len(SCHEDULE) + 1)
        # the schedule spans days: 75.6 h before jitter, each wait within ±10 %
        assert sum(waits) >= (1 - JITTER) * sum(SCHEDULE) > 2.5 * 24 * 3600
        notices = (await client.get("/v1/notifications", headers=user.key_headers)).json()
        [notice] = [n for n in notices["data"]["items"] if n["kind"].startswith("webhook.")]
        assert notice["kind"] == "webhook.failed" and notice["data"]["jobId"] == first
        await sender.run_once()  # the digest hour has passed on this clock
        [mail] = inbox.messages
        assert str(mail["Subject"]) == "Agora digest: 1 notification"
        assert "Webhook delivery failed: job.completed to" in mail.get_content()
        [endpoint] = await endpoints_of(client, user.key_headers)
        assert endpoint["enabled"] is True and endpoint["failingSince"] is not None

        # Five days after the first failure, with every delivery failing: disabled.
        clock.now = start + timedelta(days=5, minutes=1)
        late = await world.job(user.key_headers)
        delivery, _ = await world.settle(user.key_headers, late)
        assert (delivery["state"], delivery["attempts"]) == ("failed", 1)
        [endpoint] = await endpoints_of(client, user.key_headers)
        assert endpoint["enabled"] is False
        assert endpoint["disabledReason"] == "every delivery failed for 5 days"
        await sender.run_once()
        assert str(inbox.messages[-1]["Subject"]).startswith("Webhook endpoint disabled:")

        # Setting the account webhook to that URL again is the owner re-enabling it too.
        put = await client.put(
            "/v1/notifications/webhook", json={"url": url}, headers=user.key_headers
        )
        assert put.status_code == 200, put.text
        [endpoint] = await endpoints_of(client, user.key_headers)
        assert (endpoint["enabled"], endpoint["failingSince"]) == (True, None)
        up["now"] = True
        fixed = await world.job(user.key_headers)
        delivery, _ = await world.settle(user.key_headers, fixed)
        assert delivery["state"] == "delivered"


async def test_the_settings_page_shows_a_disabled_endpoint_and_re_enables_it(
    app: FastAPI, client: httpx2.AsyncClient, agents_server: LoopbackAgents
) -> None:
    from tests.web.test_pages import _sign_up_in

    csrf = await _sign_up_in(client, app.state.settings, "wes@example.com")
    api = {"X-CSRF-Token": csrf}
    async with webhook_world(app, client, agents_server, lambda: (410, {})) as world:
        url = world.url
        await world.settle(api, await world.job(api))
    [endpoint] = await endpoints_of(client, api)
    page = await client.get("/settings/notifications")
    assert page.status_code == 200
    assert 'id="webhooks"' in page.text and url in page.text
    assert "it answered 410 Gone" in page.text
    action = f"/settings/notifications/webhooks/{endpoint['id']}/enable"
    assert f'action="{action}"' in page.text
    assert (await client.post(action, data={})).status_code == 403  # no CSRF token
    enabled = await client.post(action, data={"csrf": csrf})
    assert enabled.status_code == 303
    assert enabled.headers["location"] == "/settings/notifications#webhooks"
    [endpoint] = await endpoints_of(client, api)
    assert endpoint["enabled"] is True
    page = await client.get("/settings/notifications")
    assert f'action="{action}"' not in page.text and "Delivering" in page.text
