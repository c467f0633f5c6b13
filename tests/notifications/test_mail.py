"""Notification mail through a real SMTP server on loopback (aiosmtpd): text and HTML parts, the
job's link, retries, and the RFC 8058 one-click unsubscribe that works without sign-in and stops
that kind only."""

from __future__ import annotations

import asyncio
import time
from email.message import EmailMessage
from typing import Any
from urllib.parse import urlsplit

import httpx2
from fastapi import FastAPI

from agora.kit.money import to_base
from agora.notifications.worker import NotificationSender
from agora.sandbox.protocol import Step
from tests.conftest import MakeUser
from tests.jobs.helpers import create, dispatcher, echo, register, reviewer
from tests.notifications.test_inbox import waiting_job
from tests.support.agents import LoopbackAgents
from tests.support.smtp import Inbox, smtp_settings


async def until(condition: Any, sender: NotificationSender, seconds: float = 5.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        await sender.run_once()
        await asyncio.sleep(0.02)


def parts(message: EmailMessage) -> tuple[str, str]:
    text = message.get_body(("plain",))
    html = message.get_body(("html",))
    assert text is not None and html is not None
    return str(text.get_content()), str(html.get_content())  # type: ignore[attr-defined]


async def test_input_requested_mails_the_owner_with_the_form_link_and_one_click_unsubscribe(
    app: FastAPI,
    client: httpx2.AsyncClient,
    make_user: MakeUser,
    agents_server: LoopbackAgents,
    smtp: tuple[Inbox, int],
) -> None:
    inbox, port = smtp
    settings = smtp_settings(app.state.settings, port)
    sender = NotificationSender(app.state.db, settings)
    user = await make_user(credits=to_base(10))
    try:
        job_id = await waiting_job(app, client, agents_server, user.key_headers)
        asked = time.monotonic()  # the job is INPUT_REQUIRED (committed)
        await until(lambda: inbox.messages, sender)
        assert time.monotonic() - asked < 2.0
        [mail] = inbox.messages
        assert mail["To"] == user.email
        assert "needs your input" in str(mail["Subject"])
        link = f"{settings.public_url.rstrip('/')}/jobs/{job_id}#input-form"
        text, html = parts(mail)
        assert link in text
        assert "Draft review" in text and "<strong>Draft review</strong>" in html  # the question
        assert f'href="{link}"' in html
        unsubscribe = str(mail["List-Unsubscribe"])
        assert unsubscribe.startswith("<") and unsubscribe.endswith(">")
        assert mail["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
        log = await client.get(
            "/v1/notifications/deliveries", params={"channel": "mail"}, headers=user.key_headers
        )
        assert [(d["state"], d["attempts"]) for d in log.json()["data"]] == [("delivered", 1)]

        # The link opens the job's page with its input form (signed in as the owner: the key).
        url = urlsplit(unsubscribe[1:-1])
        # One click, as a mail client does it (RFC 8058 §3.1): no cookie, no key.
        clicked = await client.post(
            f"{url.path}?{url.query}",
            content=b"List-Unsubscribe=One-Click",
            headers={"content-type": "application/x-www-form-urlencoded"},
        )
        assert clicked.status_code == 200, clicked.text
        assert "job.input_required" in clicked.text
        prefs = (await client.get("/v1/notifications/preferences", headers=user.key_headers)).json()
        by_kind = {p["kind"]: p for p in prefs["data"]}
        assert by_kind["job.input_required"]["mail"] is False
        assert by_kind["job.input_required"]["inbox"] is True  # only the mail of that kind
        assert by_kind["job.failed"]["mail"] is True
        forged = await client.post(
            f"{url.path}?token=x{url.query.removeprefix('token=')}",
            content=b"List-Unsubscribe=One-Click",
            headers={"content-type": "application/x-www-form-urlencoded"},
        )
        assert forged.status_code == 400

        # That kind mails no more; another kind (a failure) still does.
        await waiting_job(app, client, agents_server, user.key_headers)
        failing = await register(app, agents_server, echo(step=lambda _job: Step("failed")))
        await create(client, user.key_headers, failing)
        await dispatcher(app).run_until_idle(5)
        await until(lambda: len(inbox.messages) == 2, sender)
        assert "failed" in str(inbox.messages[1]["Subject"])
        await sender.run_once()
        assert len(inbox.messages) == 2
    finally:
        await sender.stop()


async def test_a_refusing_mail_server_is_retried(
    app: FastAPI,
    client: httpx2.AsyncClient,
    make_user: MakeUser,
    agents_server: LoopbackAgents,
    smtp: tuple[Inbox, int],
) -> None:
    inbox, port = smtp
    inbox.failures = 2
    sender = NotificationSender(app.state.db, smtp_settings(app.state.settings, port))
    user = await make_user(credits=to_base(10))
    try:
        await waiting_job(app, client, agents_server, user.key_headers)
        await until(lambda: inbox.messages, sender)
    finally:
        await sender.stop()
    log = await client.get(
        "/v1/notifications/deliveries", params={"channel": "mail"}, headers=user.key_headers
    )
    [delivery] = log.json()["data"]
    assert (delivery["state"], delivery["attempts"]) == ("delivered", 3)
    assert inbox.refused == 2


async def test_the_mails_link_opens_the_input_form_answering_reads_it_and_the_pages_work(
    app: FastAPI,
    client: httpx2.AsyncClient,
    agents_server: LoopbackAgents,
    smtp: tuple[Inbox, int],
) -> None:
    from tests.web.test_pages import _sign_up_in

    inbox, port = smtp
    settings = smtp_settings(app.state.settings, port)
    sender = NotificationSender(app.state.db, settings)
    csrf = await _sign_up_in(client, app.state.settings, "nia@example.com")
    api = {"X-CSRF-Token": csrf}
    agent_id = await register(app, agents_server, reviewer())
    made = await create(client, api, agent_id, {"inputData": {"text": "a b"}})
    assert made.status_code == 201, made.text
    job_id = made.json()["data"]["id"]
    try:
        await dispatcher(app).run_until_idle(5)
        await until(lambda: inbox.messages, sender)
    finally:
        await sender.stop()
    text, _html = parts(inbox.messages[0])
    link = next(w for w in text.split() if "/jobs/" in w)
    opened = await client.get(urlsplit(link).path)
    assert opened.status_code == 200 and 'id="input-form"' in opened.text
    # Opening the page leaves the open question unread: answering it reads it.
    count = await client.get("/v1/notifications/unread-count", headers=api)
    assert count.json()["data"]["unreadCount"] == 1
    page = await client.get("/notifications")
    assert page.status_code == 200 and "needs your input" in page.text and "unread" in page.text
    answered = await client.post(
        f"/jobs/{job_id}/input", data={"csrf": csrf, "in.approve": "true", "in.note": "fine"}
    )
    assert answered.status_code == 303, answered.text
    assert (await client.get("/v1/notifications/unread-count", headers=api)).json()["data"][
        "unreadCount"
    ] == 0
    await dispatcher(app).run_until_idle(5)
    assert (await client.get("/v1/notifications/unread-count", headers=api)).json()["data"][
        "unreadCount"
    ] == 1  # job.completed
    await client.get(f"/jobs/{job_id}")  # opening the job reads it (after the answer)
    assert (await client.get("/v1/notifications/unread-count", headers=api)).json()["data"][
        "unreadCount"
    ] == 0

    settings_page = await client.get("/settings/notifications")
    assert settings_page.status_code == 200 and 'name="job.completed:inbox"' in settings_page.text
    saved = await client.post(
        "/settings/notifications", data={"csrf": csrf, "job.failed:inbox": "on"}
    )
    assert saved.status_code == 303
    prefs = (await client.get("/v1/notifications/preferences", headers=api)).json()["data"]
    assert {p["kind"]: (p["inbox"], p["mail"]) for p in prefs}["job.failed"] == (True, False)
    assert {p["kind"]: (p["inbox"], p["mail"]) for p in prefs}["job.completed"] == (False, False)
    assert (await client.post("/settings/notifications", data={})).status_code == 403
