"""The hourly digest (docs/notifications.md): mails of a digest kind (``job.completed``, once a
person turns its mail on) are held until the next full hour, then sent as one mail per person;
other kinds are mailed at once. The sender's clock is moved (``clock``)."""

from __future__ import annotations

from urllib.parse import urlsplit

import httpx2
from fastapi import FastAPI

from agora.kit.money import to_base
from agora.kit.timeutil import utcnow
from agora.notifications.worker import NotificationSender
from tests.accounts.helpers import mails_to
from tests.conftest import MakeUser
from tests.jobs.helpers import create, dispatcher, echo, register
from tests.schedules.helpers import Clock
from tests.support.agents import LoopbackAgents


async def test_completed_jobs_are_mailed_in_one_hourly_digest(
    app: FastAPI,
    client: httpx2.AsyncClient,
    make_user: MakeUser,
    agents_server: LoopbackAgents,
) -> None:
    agent_id = await register(app, agents_server, echo())
    user, other = await make_user(credits=to_base(10)), await make_user(credits=to_base(10))
    for who in (user, other):
        on = await client.put(
            "/v1/notifications/preferences",
            json={"preferences": [{"kind": "job.completed", "mail": True}]},
            headers=who.key_headers,
        )
        assert on.status_code == 200, on.text
    for who, count in ((user, 2), (other, 1)):
        for _ in range(count):
            body = {"inputData": {"text": "hi"}}
            assert (await create(client, who.key_headers, agent_id, body)).status_code == 201
    await dispatcher(app).run_until_idle(5)
    items = (await client.get("/v1/notifications", headers=user.key_headers)).json()["data"]
    assert [i["kind"] for i in items["items"]] == ["job.completed", "job.completed"]  # at once

    clock = Clock(utcnow())
    sender = NotificationSender(app.state.db, app.state.settings, clock=clock)
    await sender.run_once()
    assert mails_to(app.state.settings, user.email) == []  # held until the next full hour
    log = await client.get(
        "/v1/notifications/deliveries", params={"channel": "mail"}, headers=user.key_headers
    )
    assert [d["state"] for d in log.json()["data"]] == ["pending", "pending"]

    clock.advance(hours=1, minutes=1)
    await sender.run_once()
    [digest] = mails_to(app.state.settings, user.email)
    assert digest["Subject"] == "Agora digest: 2 notifications"
    text = digest.get_content()
    assert text.count("is done") == 2 and "/jobs/" in text
    [single] = mails_to(app.state.settings, other.email)
    assert single["Subject"] == "Agora digest: 1 notification"
    log = await client.get(
        "/v1/notifications/deliveries", params={"channel": "mail"}, headers=user.key_headers
    )
    assert [d["state"] for d in log.json()["data"]] == ["delivered", "delivered"]
    await sender.run_once()
    assert len(mails_to(app.state.settings, user.email)) == 1  # sent once

    # RFC 8058 on the digest too: one click (no cookie, no key) stops the digest's mails.
    assert digest["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    link = urlsplit(str(digest["List-Unsubscribe"]).strip("<>"))
    assert f"Stop these digests: {link.geturl()}" in text
    clicked = await client.post(
        f"{link.path}?{link.query}",
        content=b"List-Unsubscribe=One-Click",
        headers={"content-type": "application/x-www-form-urlencoded"},
    )
    assert clicked.status_code == 200, clicked.text
    prefs = (await client.get("/v1/notifications/preferences", headers=user.key_headers)).json()
    by_kind = {p["kind"]: p for p in prefs["data"]}
    assert by_kind["job.completed"]["mail"] is False
    assert by_kind["job.completed"]["inbox"] is True
    assert by_kind["job.failed"]["mail"] is True  # not a digest kind: unchanged
    others = (await client.get("/v1/notifications/preferences", headers=other.key_headers)).json()
    assert {p["kind"]: p for p in others["data"]}["job.completed"]["mail"] is True
