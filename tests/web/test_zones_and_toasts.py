"""Issue 45 through HTTP: every time a page shows is in the reader's zone, named — the zone chosen
on /settings/appearance (cookie ``agora_tz``) or else the browser's own (``agora_tz_auto``, which
app.js sets), UTC until one is known — and the inbox's days fall in that zone; the appearance
page keeps the theme and the zone and refuses what is not one; an action's toast is said once,
and only from the app's own catalogue."""

from __future__ import annotations

import re
import uuid
from datetime import UTC, datetime

import httpx2
from fastapi import FastAPI

from agora.kit.db import Database
from agora.models import Notification
from agora.sandbox.protocol import Step
from agora.settings import Settings
from tests.jobs.helpers import dispatcher, echo, register
from tests.support.agents import LoopbackAgents
from tests.web.test_pages import _sign_up_in

LATE_SATURDAY_UTC = datetime(2026, 1, 10, 20, 0, tzinfo=UTC)  # Sunday 05:00 in Tokyo
EARLY_SUNDAY_UTC = datetime(2026, 1, 11, 2, 0, tzinfo=UTC)  # Sunday 11:00 in Tokyo


async def _two_notices(client: httpx2.AsyncClient, settings: Settings, db: Database) -> None:
    await _sign_up_in(client, settings, f"zone-{uuid.uuid4().hex[:8]}@example.com")
    me = uuid.UUID((await client.get("/v1/users/me")).json()["data"]["id"])
    async with db.transaction() as session:
        for title, at in (("Late one", LATE_SATURDAY_UTC), ("Early one", EARLY_SUNDAY_UTC)):
            session.add(
                Notification(user_id=me, kind="job.completed", title=title, data={}, created_at=at)
            )


def _days(page: str) -> list[str]:
    return re.findall(r'<h2 class="inbox-day">([^<]+)</h2>', page)


async def test_the_inbox_days_and_times_fall_in_the_readers_zone(
    client: httpx2.AsyncClient, settings: Settings, db: Database
) -> None:
    await _two_notices(client, settings, db)
    # No zone known yet: UTC, named.
    utc = (await client.get("/notifications")).text
    assert _days(utc) == ["Sunday 11 January 2026", "Saturday 10 January 2026"]
    assert '<time datetime="2026-01-10T20:00:00Z" data-relative>2026-01-10 20:00 UTC</time>' in utc
    # The browser's zone (app.js tells it): both on the Sunday in Tokyo.
    client.cookies.set("agora_tz_auto", "Asia/Tokyo")
    tokyo = (await client.get("/notifications")).text
    assert _days(tokyo) == ["Sunday 11 January 2026"]
    assert ">2026-01-11 05:00 JST</time>" in tokyo and ">2026-01-11 11:00 JST</time>" in tokyo
    # A zone chosen in the settings wins over the browser's: both on the Saturday in Honolulu.
    client.cookies.set("agora_tz", "Pacific/Honolulu")
    honolulu = (await client.get("/notifications")).text
    assert _days(honolulu) == ["Saturday 10 January 2026"]
    assert ">2026-01-10 10:00 HST</time>" in honolulu
    assert '<html lang="en" data-tz="Pacific/Honolulu">' in honolulu
    # What is not a zone's name is ignored (never a path on disk): UTC again.
    client.cookies.set("agora_tz", "../../../etc/passwd")
    client.cookies.set("agora_tz_auto", "Mars/Olympus_Mons")
    odd = (await client.get("/notifications")).text
    assert _days(odd) == _days(utc) and "data-tz" not in odd


async def test_the_appearance_page_keeps_the_theme_and_the_zone(
    client: httpx2.AsyncClient, settings: Settings
) -> None:
    # Anyone may choose (cookies: no account needed); a signed-out reader sees one tab.
    page = await client.get("/settings/appearance")
    assert page.status_code == 200 and 'id="settings-tabs"' in page.text
    assert ">Appearance</a>" in page.text and "Notifications</a>" not in page.text
    assert "<option>Europe/Berlin</option>" in page.text
    saved = await client.post(
        "/settings/appearance", data={"theme": "dark", "timezone": "Europe/Berlin"}
    )
    assert saved.status_code == 303 and saved.headers["location"] == "/settings/appearance"
    cookies = saved.headers.get_list("set-cookie")
    assert any(c.startswith("agora_theme=dark;") and "HttpOnly" in c for c in cookies)
    assert any(c.startswith('agora_tz="Europe/Berlin";') and "HttpOnly" in c for c in cookies)
    shown = await client.get("/settings/appearance")
    assert '<html lang="en" data-theme="dark" data-tz="Europe/Berlin">' in shown.text
    assert "<option selected>Europe/Berlin</option>" in shown.text
    assert re.search(r"Now: <time datetime=\"[^\"]+Z\">[\d -:]+ CES?T</time>", shown.text)
    assert 'id="toast"><p>Saved.</p>' in shown.text
    assert 'id="toast"' not in (await client.get("/settings/appearance")).text  # said once
    # Refusals name the field; nothing is kept.
    for form, field, words in (
        ({"theme": "dark", "timezone": "Mars/Olympus_Mons"}, "timezone", "is not a time zone"),
        ({"theme": "dark", "timezone": "../../etc/passwd"}, "timezone", "is not a time zone"),
        ({"theme": "blue", "timezone": ""}, "theme", "Choose As the device, Light or Dark"),
    ):
        refused = await client.post("/settings/appearance", data=form)
        assert refused.status_code == 400, form
        assert f'id="err-{field}"' in refused.text and words in refused.text, form
        assert "set-cookie" not in refused.headers
    # "As the device" for both forgets the choices.
    back = await client.post("/settings/appearance", data={"theme": "system", "timezone": ""})
    cookies = back.headers.get_list("set-cookie")
    assert any('agora_theme=""' in c for c in cookies) and any('agora_tz=""' in c for c in cookies)


async def test_signed_in_the_settings_pages_share_their_tabs(
    client: httpx2.AsyncClient, settings: Settings
) -> None:
    await _sign_up_in(client, settings, "tabs@example.com")
    for path in ("/settings/notifications", "/settings/appearance", "/settings/data"):
        page = (await client.get(path)).text
        tabs = page[page.index('id="settings-tabs"') :]
        tabs = tabs[: tabs.index("</nav>")]
        assert re.findall(r">([^<]+)</a>", tabs) == [
            "Notifications", "Appearance", "Sign-in methods", "Passkeys", "Your data",
        ]  # fmt: skip
        assert f'<a href="{path}" aria-current="page">' in tabs


async def test_an_action_says_what_it_did_once_and_only_in_the_apps_words(
    client: httpx2.AsyncClient, settings: Settings
) -> None:
    csrf = await _sign_up_in(client, settings, "toast@example.com")
    done = await client.post("/notifications/read-all", data={"csrf": csrf})
    assert done.status_code == 303 and done.headers["location"] == "/notifications"
    page = (await client.get("/notifications")).text
    assert '<div class="toast" role="status" id="toast">' in page
    assert "Everything in your inbox is marked read." in page
    assert 'id="toast"' not in (await client.get("/notifications")).text
    saved = await client.post("/settings/notifications", data={"csrf": csrf})
    assert saved.headers["location"] == "/settings/notifications"
    assert "<p>Saved.</p>" in (await client.get("/settings/notifications")).text
    # A cookie holding anything but a key of the catalogue shows nothing.
    client.cookies.set("agora_toast", "<script>alert(1)</script>")
    forged = (await client.get("/notifications")).text
    assert 'id="toast"' not in forged and "alert(1)" not in forged
    # Signing out says so on the sign-in page.
    out = await client.post("/sign-out", data={"csrf": csrf})
    assert out.status_code == 303 and out.headers["location"] == "/sign-in"
    assert "You are signed out." in (await client.get("/sign-in")).text


async def test_a_job_hired_from_a_page_is_named_at_the_readers_time(
    app: FastAPI, client: httpx2.AsyncClient, settings: Settings, agents_server: LoopbackAgents
) -> None:
    agent_id = await register(app, agents_server, echo())
    csrf = await _sign_up_in(client, settings, "named@example.com")
    client.cookies.set("agora_tz", "Asia/Kolkata")  # +05:30 all year: no DST to guess
    hired = await client.post(f"/agents/{agent_id}/hire", data={"csrf": csrf, "in.text": "hi"})
    assert hired.status_code == 303, hired.text
    job_id = hired.headers["location"].rsplit("/", 1)[1]
    name = (await client.get(f"/v1/jobs/{job_id}")).json()["data"]["name"]
    assert re.fullmatch(r".+ · \d{4}-\d\d-\d\d \d\d:\d\d IST", name), name
    # Through the API, with no reader's zone: UTC, named (unchanged).
    api = await client.post(
        f"/v1/agents/{agent_id}/jobs", json={"inputData": {"text": "hi"}},
        headers={"X-CSRF-Token": csrf},
    )  # fmt: skip
    assert api.status_code in (200, 201), api.text
    assert api.json()["data"]["name"].endswith(" UTC")


async def test_a_running_job_page_says_where_the_result_will_be(
    app: FastAPI, client: httpx2.AsyncClient, settings: Settings, agents_server: LoopbackAgents
) -> None:
    still = echo(step=lambda _job: Step("running"))
    agent_id = await register(app, agents_server, still)
    csrf = await _sign_up_in(client, settings, "running@example.com")
    hired = await client.post(f"/agents/{agent_id}/hire", data={"csrf": csrf, "in.text": "hi"})
    job_path = hired.headers["location"]
    await dispatcher(app).run_once()  # started: the agent answers "running" from then on
    page = (await client.get(job_path)).text
    assert 'data-status="RUNNING"' in page
    card = page[page.index('id="job-working"') :]
    assert "is working on it</h2>" in card[: card.index("</section>")]
    assert 'id="result"' not in page
    cancelled = await client.post(f"{job_path}/cancel", data={"csrf": csrf})
    assert cancelled.status_code == 303, cancelled.text
    ended = (await client.get(job_path)).text
    assert 'data-status="CANCELLED"' in ended and 'id="job-working"' not in ended
