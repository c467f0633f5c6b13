"""The web app through HTTP (the `client` fixture), on SQLite and PostgreSQL: forms with CSRF,
server-side field errors from the MIP-003 schema, the job page, sanitised results, `q` on
GET /v1/agents, and GET /v1/jobs/{id}/stream (SSE, Last-Event-ID)."""

from __future__ import annotations

import re

import httpx2
from fastapi import FastAPI

from agora.settings import Settings
from tests.accounts.helpers import STRONG_PASSWORD, last_link
from tests.conftest import MakeUser
from tests.jobs.helpers import dispatcher, echo, register, reviewer
from tests.support.agents import LoopbackAgents

_CSRF = re.compile(r'name="csrf" value="([^"]*)"')


def _csrf(html: str) -> str:
    found = _CSRF.search(html)
    assert found, "no CSRF field in the page"
    return found.group(1)


async def _sign_up_in(client: httpx2.AsyncClient, settings: Settings, email: str) -> str:
    """Through the pages: sign up, confirm from the mail, sign in. Returns the CSRF token."""
    page = await client.get("/sign-up")
    assert page.status_code == 200
    assert "Content-Security-Policy" in page.headers
    assert "unsafe-inline" not in page.headers["Content-Security-Policy"]
    done = await client.post(
        "/sign-up",
        data={"csrf": "", "name": "Ada", "email": email, "password": STRONG_PASSWORD},
    )
    assert done.status_code == 200 and "Check your mail" in done.text, done.text
    _, token = last_link(settings, email, "Confirm")
    interstitial = await client.get(f"/verify-email?token={token}")
    assert interstitial.status_code == 200
    verified = await client.post("/verify-email", data={"csrf": "", "token": token})
    assert verified.status_code == 303
    wrong = await client.post(
        "/sign-in", data={"csrf": "", "email": email, "password": "not-the-password"}
    )
    assert wrong.status_code == 401 and 'role="alert"' in wrong.text
    signed = await client.post(
        "/sign-in",
        data={"csrf": "", "email": email, "password": STRONG_PASSWORD, "next": "//evil.example"},
    )
    assert signed.status_code == 303
    assert signed.headers["location"] == "/agents"  # no open redirect
    gallery = await client.get("/agents")
    return _csrf(gallery.text)


async def test_q_searches_agents_over_the_api_and_in_the_gallery(
    app: FastAPI, client: httpx2.AsyncClient, agents_server: LoopbackAgents
) -> None:
    await register(app, agents_server, echo())
    await register(app, agents_server, reviewer(), price=2)
    listed = await client.get("/v1/agents", params={"q": "REVIEW"})
    assert listed.status_code == 200
    assert [a["name"] for a in listed.json()["data"]] == ["Reviewer"]
    assert (await client.get("/v1/agents", params={"q": "nothing-like-this"})).json()["data"] == []
    assert (await client.get("/v1/agents", params={"q": "%"})).json()["data"] == []  # literal
    page = await client.get("/agents", params={"q": "review"})
    assert page.status_code == 200
    assert "Reviewer" in page.text and ">Echo<" not in page.text
    empty = await client.get("/agents", params={"q": "zzz"})
    assert "No agent matches" in empty.text


async def test_hire_answer_and_stream_through_the_pages(
    app: FastAPI,
    client: httpx2.AsyncClient,
    settings: Settings,
    agents_server: LoopbackAgents,
    make_user: MakeUser,
) -> None:
    agent_id = await register(app, agents_server, reviewer(), price=2)
    csrf = await _sign_up_in(client, settings, "ada@example.com")
    agent_page = await client.get(f"/agents/{agent_id}")
    assert 'name="in.text"' in agent_page.text and 'id="maxCredits"' in agent_page.text
    # No CSRF token: refused.
    refused = await client.post(f"/agents/{agent_id}/hire", data={"in.text": "x"})
    assert refused.status_code == 403
    # A field error, shown on its field.
    bad = await client.post(f"/agents/{agent_id}/hire", data={"csrf": csrf, "maxCredits": "5"})
    assert bad.status_code == 400, bad.text
    assert 'id="e-f-text"' in bad.text and "is required" in bad.text
    # Above the accepted maximum: refused with the reason.
    too_cheap = await client.post(
        f"/agents/{agent_id}/hire", data={"csrf": csrf, "in.text": "hi", "maxCredits": "1"}
    )
    assert too_cheap.status_code == 400 and "above the 1 you accept" in too_cheap.text
    hired = await client.post(
        f"/agents/{agent_id}/hire",
        data={"csrf": csrf, "in.text": "Some words here", "maxCredits": "5"},
    )
    assert hired.status_code == 303, hired.text
    job_path = hired.headers["location"]
    job_id = job_path.rsplit("/", 1)[1]
    await dispatcher(app).run_until_idle()
    waiting = await client.get(job_path)
    assert "INPUT_REQUIRED" in waiting.text and 'id="input-form"' in waiting.text
    answered = await client.post(
        f"{job_path}/input",
        data={"csrf": csrf, "in.approve": "true", "in.note": "<script>alert(1)</script> **ok**"},
    )
    assert answered.status_code == 303, answered.text
    await dispatcher(app).run_until_idle()
    done = await client.get(job_path)
    result = done.text.split('id="result"', 1)[1].split("</div>", 1)[0]
    assert "<strong>ok</strong>" in result
    assert "<script" not in result and "&lt;script&gt;" in result
    download = await client.get(f"{job_path}/result.md")
    assert download.headers["content-type"].startswith("text/markdown")
    assert "attachment" in download.headers["content-disposition"]

    # The stream: every event, then it ends (the job is finished); resumable after an id.
    streamed = await client.get(f"/v1/jobs/{job_id}/stream")
    assert streamed.status_code == 200
    assert streamed.headers["content-type"].startswith("text/event-stream")
    ids = re.findall(r"^id: (\S+)$", streamed.text, re.M)
    names = re.findall(r"^event: (\S+)$", streamed.text, re.M)
    assert "input_requested" in names and names[-1] == "result"
    resumed = await client.get(f"/v1/jobs/{job_id}/stream", headers={"Last-Event-ID": ids[1]})
    assert re.findall(r"^id: (\S+)$", resumed.text, re.M) == ids[2:]

    # Credits and history pages show it.
    credits = await client.get("/credits")
    assert 'id="ledger"' in credits.text and job_id in credits.text
    history = await client.get("/history")
    assert job_id in history.text
    assert f'<a href="/jobs/{job_id}">' in history.text  # the feed links each item to its page
    [item] = (await client.get("/v1/history")).json()["items"]  # the same feed, as the API
    assert f"<td>{item['credits']:g} credits</td>" in history.text  # in display units

    # Another workspace's job: 404, on the page and on the stream; no credential: 401.
    other = await make_user()
    assert (
        await client.get(f"/v1/jobs/{job_id}/stream", headers=other.key_headers)
    ).status_code == 404
    client.cookies.clear()
    assert (await client.get(f"/v1/jobs/{job_id}/stream")).status_code == 401
    assert (await client.get(job_path)).status_code == 303  # to the sign-in page


async def test_keys_page_shows_a_new_key_once_and_revokes_it(
    client: httpx2.AsyncClient, settings: Settings
) -> None:
    csrf = await _sign_up_in(client, settings, "grace@example.com")
    before = (await client.get("/keys")).text.count('/revoke"')
    # Post/Redirect/Get: the POST answers 303, the key is in no URL; the next page shows it once.
    created = await client.post("/keys", data={"csrf": csrf, "name": "ci"})
    assert created.status_code == 303, created.text
    assert created.headers["location"] == "/keys"
    shown = await client.get("/keys")
    key = re.search(r'id="new-key">([^<]+)<', shown.text)
    assert key is not None
    assert key.group(1) not in created.headers["location"] and key.group(1) not in str(shown.url)
    assert 'data-copy="new-key"' in shown.text  # the copy button (app.js; no inline script)
    assert (
        await client.get("/v1/users/me", headers={"x-api-key": key.group(1)})
    ).status_code == 200
    again = await client.get("/keys")  # a reload: shows it no more, creates nothing
    assert key.group(1) not in again.text and 'id="new-key"' not in again.text
    assert again.text.count('/revoke"') == before + 1
    # A blank name: 400 with the error summary and the field tied to its message; nothing made.
    blank = await client.post("/keys", data={"csrf": csrf, "name": "  "})
    assert blank.status_code == 400, blank.text
    assert 'class="error-summary"' in blank.text and 'href="#key-name"' in blank.text
    assert 'aria-invalid="true" aria-describedby="err-name"' in blank.text
    assert (await client.get("/keys")).text.count('/revoke"') == before + 1
    key_id = re.search(r'action="/keys/([0-9a-f-]+)/revoke"', again.text)
    assert key_id is not None
    revoked = await client.post(f"/keys/{key_id.group(1)}/revoke", data={"csrf": csrf})
    assert revoked.status_code == 303
    assert (
        await client.get("/v1/users/me", headers={"x-api-key": key.group(1)})
    ).status_code == 401


async def test_unknown_pages_and_ids_answer_in_the_apps_look(
    client: httpx2.AsyncClient, settings: Settings
) -> None:
    await _sign_up_in(client, settings, "linus@example.com")
    missing = await client.get("/jobs/00000000-0000-0000-0000-000000000000")
    assert missing.status_code == 404 and "<h1>404" in missing.text
    assert (await client.get("/agents/not-an-id")).status_code == 404
    nowhere = await client.get("/no-such-page")
    assert nowhere.status_code == 404 and "<h1>404" in nowhere.text
    assert "Content-Security-Policy" in nowhere.headers
    api = await client.get("/v1/no-such-route")  # the API keeps its JSON errors
    assert api.status_code == 404 and api.headers["content-type"].startswith("application/json")
    forged = await client.post("/keys", data={"name": "no token"})
    assert forged.status_code == 403 and "<h1>403" in forged.text


async def test_workspace_switcher_and_organization_invitation_pages(
    client: httpx2.AsyncClient, settings: Settings
) -> None:
    csrf = await _sign_up_in(client, settings, "owner@example.com")
    made = await client.post("/organizations", data={"csrf": csrf, "name": "Lantern Works"})
    assert made.status_code == 303
    org_path = made.headers["location"]
    invited = await client.post(f"{org_path}/invitations", data={"csrf": csrf, "role": "member"})
    assert invited.status_code == 303
    assert 'id="invite-link"' in (await client.get(org_path)).text
    gallery = await client.get("/agents")
    options = re.findall(r'<option value="([0-9a-f-]+)"( selected)?>([^<]+)</option>', gallery.text)
    assert [label for _, _, label in options] == ["Personal", "Lantern Works"]
    assert options[0][1] == " selected"
    org_workspace = options[1][0]
    switched = await client.post(
        "/workspace", data={"csrf": csrf, "workspaceId": org_workspace, "next": "/credits"}
    )
    assert switched.status_code == 303 and switched.headers["location"] == "/credits"
    after = await client.get("/agents")
    assert f'<option value="{org_workspace}" selected>' in after.text
    me = await client.get("/v1/auth/session")
    assert org_workspace in me.text
    # Not a workspace of yours: 404 in the app's look.
    other = await client.post(
        "/workspace", data={"csrf": csrf, "workspaceId": "00000000-0000-0000-0000-000000000000"}
    )
    assert other.status_code == 404 and "<h1>404" in other.text
    # The API keeps refusing form bodies (415).
    api = await client.post("/v1/organizations", data={"name": "x"}, headers={"X-CSRF-Token": csrf})
    assert api.status_code == 415


async def test_magic_link_reset_password_cancel_and_sign_out_pages(
    app: FastAPI, client: httpx2.AsyncClient, settings: Settings, agents_server: LoopbackAgents
) -> None:
    agent_id = await register(app, agents_server, reviewer(), price=2)
    csrf = await _sign_up_in(client, settings, "hedy@example.com")
    # Cancel an unfinished job from its page: refunded, final, no cancel button any more.
    hired = await client.post(
        f"/agents/{agent_id}/hire", data={"csrf": csrf, "in.text": "words", "maxCredits": "5"}
    )
    job_path = hired.headers["location"]
    cancelled = await client.post(f"{job_path}/cancel", data={"csrf": csrf})
    assert cancelled.status_code == 303
    page = await client.get(job_path)
    assert "CANCELLED" in page.text and "Cancel the job" not in page.text
    again = await client.post(f"{job_path}/cancel", data={"csrf": csrf})
    assert again.status_code == 409 and "<h1>409" in again.text
    # Sign out: the session ends; pages send you to sign in.
    out = await client.post("/sign-out", data={"csrf": csrf})
    assert out.status_code == 303
    client.cookies.clear()
    assert (await client.get("/credits")).status_code == 303
    # A magic link, through its interstitial page.
    asked = await client.post("/v1/auth/magic-link", json={"email": "hedy@example.com"})
    assert asked.status_code == 202
    _, token = last_link(settings, "hedy@example.com", "sign-in link")
    landing = await client.get(f"/magic-link?token={token}")
    assert landing.status_code == 200 and token in landing.text
    signed = await client.post("/magic-link", data={"csrf": "", "token": token})
    assert signed.status_code == 303
    assert (await client.get("/credits")).status_code == 200
    reused = await client.post(
        "/magic-link", data={"csrf": _csrf((await client.get("/agents")).text), "token": token}
    )
    assert reused.status_code == 400
    # A password reset, through its page; a weak password is refused on its field.
    client.cookies.clear()
    await client.post("/v1/auth/password-reset", json={"email": "hedy@example.com"})
    _, reset_token = last_link(settings, "hedy@example.com", "Reset")
    form = await client.get(f"/reset-password?token={reset_token}")
    assert form.status_code == 200
    weak = await client.post(
        "/reset-password", data={"csrf": "", "token": reset_token, "password": "password"}
    )
    assert weak.status_code == 400 and 'role="alert"' in weak.text
    done = await client.post(
        "/reset-password",
        data={"csrf": "", "token": reset_token, "password": "copper-meadow-lantern-58"},
    )
    assert done.status_code == 303 and done.headers["location"] == "/sign-in"


RICH_SCHEMA = {
    "input_groups": [
        {
            "id": "basics",
            "title": "Basics",
            "input_data": [
                {"id": "title", "type": "string", "name": "Title",
                 "validations": [{"validation": "max", "value": "20"}]},
                {"id": "contact", "type": "email", "name": "Contact",
                 "validations": [{"validation": "optional", "value": "true"}]},
                {"id": "count", "type": "number", "name": "Count",
                 "validations": [{"validation": "min", "value": "1"},
                                 {"validation": "max", "value": "10"}]},
                {"id": "level", "type": "range", "name": "Level",
                 "data": {"min": 0, "max": 10, "step": 5}},
                {"id": "intro", "type": "none", "name": "Read me"},
                {"id": "src", "type": "hidden", "name": "Source", "data": {"value": "web"}},
            ],
        },
        {
            "id": "choices",
            "title": "Choices",
            "input_data": [
                {"id": "tone", "type": "radio", "name": "Tone",
                 "data": {"values": ["calm", "bold"]}},
                {"id": "langs", "type": "multiselect", "name": "Languages",
                 "data": {"values": ["en", "de", "fr"]},
                 "validations": [{"validation": "max", "value": "2"}]},
                {"id": "extras", "type": "checkbox", "name": "Extras",
                 "data": {"values": ["summary", "links"]},
                 "validations": [{"validation": "optional", "value": "true"}]},
                {"id": "agree", "type": "boolean", "name": "Agree"},
                {"id": "size", "type": "option", "name": "Size",
                 "data": {"values": [{"value": "s"}, {"value": "m"}]}},
            ],
        },
    ]
}  # fmt: skip


async def test_every_field_type_and_group_renders_and_reports_on_its_field(
    app: FastAPI, client: httpx2.AsyncClient, settings: Settings, agents_server: LoopbackAgents
) -> None:
    agent_id = await register(app, agents_server, echo(input_schema=RICH_SCHEMA))
    csrf = await _sign_up_in(client, settings, "rich@example.com")
    page = await client.get(f"/agents/{agent_id}")
    html = page.text
    assert "<legend>Basics</legend>" in html and "<legend>Choices</legend>" in html
    assert 'type="email" name="in.contact"' in html and 'maxlength="20"' in html
    assert 'type="range" name="in.level"' in html and 'step="5"' in html
    assert 'type="radio" name="in.tone" value="bold"' in html
    assert 'name="in.langs" multiple' in html and 'type="checkbox" name="in.extras"' in html
    assert 'name="in.intro"' not in html  # display only
    bad = await client.post(
        f"/agents/{agent_id}/hire",
        data={
            "csrf": csrf, "in.title": "x" * 30, "in.count": "11", "in.level": "3",
            "in.tone": "bold", "in.langs": ["en", "de", "fr"], "in.size": "m",
            "in.src": "web", "in.contact": "not-an-email",
        },
    )  # fmt: skip
    assert bad.status_code == 400
    for field in ("title", "count", "level", "langs", "contact"):
        assert f'id="e-f-{field}"' in bad.text, field
    assert 'value="bold" checked' in bad.text  # what was chosen stays chosen
    good = await client.post(
        f"/agents/{agent_id}/hire",
        data={
            "csrf": csrf, "in.title": "Hello", "in.count": "3", "in.level": "5",
            "in.tone": "calm", "in.langs": ["en", "fr"], "in.extras": "links",
            "in.agree": "true", "in.size": "s", "in.src": "web",
        },
    )  # fmt: skip
    assert good.status_code == 303, good.text
