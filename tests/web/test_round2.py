"""The web app's second round (issue 31, through HTTP, on SQLite and PostgreSQL): reset and magic
link requested from the sign-in page, the agent's text on input requests, a required yes/no that
is never answered by surprise, the job's own input, form errors all at once with their summary,
a resend-verification link, the favicon, and the one-time key flash."""

from __future__ import annotations

import re
from typing import Any

import httpx2
from fastapi import FastAPI

from agora.sandbox.protocol import AgentJob, Behaviour, Step
from agora.settings import Settings
from tests.accounts.helpers import STRONG_PASSWORD, last_link, mails_to
from tests.jobs.helpers import dispatcher, register, reviewer
from tests.support.agents import LoopbackAgents
from tests.web.test_pages import _csrf, _sign_up_in

HOSTILE = "<script>window.pwned=1</script> [x](javascript:alert(1)) <img src=x onerror=alert(1)>"


async def test_sign_in_links_to_a_reset_and_a_magic_link_that_can_be_requested(
    client: httpx2.AsyncClient, settings: Settings
) -> None:
    await _sign_up_in(client, settings, "ada@example.com")
    client.cookies.clear()
    sign_in = await client.get("/sign-in")
    assert 'href="/reset-password"' in sign_in.text and 'href="/magic-link"' in sign_in.text

    for path, subject in (("/magic-link", "sign-in link"), ("/reset-password", "Reset")):
        form = await client.get(path)  # no token: a form asking for the address
        assert form.status_code == 200
        assert f'action="{path}/request"' in form.text and 'name="email"' in form.text
        assert 'name="token"' not in form.text
        before = len(mails_to(settings, "ada@example.com"))
        sent = await client.post(f"{path}/request", data={"csrf": "", "email": "Ada@Example.com"})
        assert sent.status_code == 303 and sent.headers["location"] == f"{path}?sent=1"
        assert len(mails_to(settings, "ada@example.com")) == before + 1
        assert subject in str(mails_to(settings, "ada@example.com")[-1]["Subject"])
        # No account: the same answer, no mail.
        nobody = await client.post(
            f"{path}/request", data={"csrf": "", "email": "nobody@example.com"}
        )
        assert nobody.status_code == 303 and nobody.headers["location"] == f"{path}?sent=1"
        assert mails_to(settings, "nobody@example.com") == []
        done = await client.get(nobody.headers["location"])
        assert "If the address has an account, a mail is on its way." in done.text
        # A malformed address: 400 on its field, with the summary.
        bad = await client.post(f"{path}/request", data={"csrf": "", "email": "not-an-address"})
        assert bad.status_code == 400
        assert 'class="error-summary"' in bad.text and 'href="#email"' in bad.text
        assert 'aria-invalid="true" aria-describedby="err-email"' in bad.text

    # The mailed links work: the magic link signs in, the reset link sets a password.
    _, token = last_link(settings, "ada@example.com", "sign-in link")
    landing = await client.get(f"/magic-link?token={token}")
    assert 'name="token"' in landing.text
    signed = await client.post("/magic-link", data={"csrf": "", "token": token})
    assert signed.status_code == 303
    assert (await client.get("/keys")).status_code == 200
    client.cookies.clear()
    _, token = last_link(settings, "ada@example.com", "Reset")
    reset = await client.post(
        "/reset-password", data={"csrf": "", "token": token, "password": STRONG_PASSWORD + "x"}
    )
    assert reset.status_code == 303
    again = await client.post(
        "/sign-in",
        data={"csrf": "", "email": "ada@example.com", "password": STRONG_PASSWORD + "x"},
    )
    assert again.status_code == 303


async def test_an_unverified_address_gets_a_resend_link(
    client: httpx2.AsyncClient, settings: Settings
) -> None:
    done = await client.post(
        "/sign-up",
        data={"csrf": "", "name": "Bo", "email": "bo@example.com", "password": STRONG_PASSWORD},
    )
    assert done.status_code == 200
    refused = await client.post(
        "/sign-in", data={"csrf": "", "email": "bo@example.com", "password": STRONG_PASSWORD}
    )
    assert refused.status_code == 403
    assert 'id="resend-verification"' in refused.text and 'href="/verify-email"' in refused.text
    page = await client.get("/verify-email")
    assert 'action="/verify-email/request"' in page.text
    before = len(mails_to(settings, "bo@example.com"))
    sent = await client.post("/verify-email/request", data={"csrf": "", "email": "bo@example.com"})
    assert sent.status_code == 303
    assert len(mails_to(settings, "bo@example.com")) == before + 1
    _, token = last_link(settings, "bo@example.com", "Confirm")
    verified = await client.post("/verify-email", data={"csrf": "", "token": token})
    assert verified.status_code == 303


def _asks_with_hostile_text(job: AgentJob) -> Step:
    if not job.provided:
        schema = {
            "input_data": [
                {"id": "shown", "type": "none", "name": "Read this",
                 "data": {"description": f"**display** {HOSTILE}"}},
                {"id": "ok", "type": "boolean", "name": "Go on?",
                 "data": {"description": f"_field words_ {HOSTILE}"}},
            ],
        }  # fmt: skip
        return Step("awaiting_input", input_schema=schema, message=f"# Said {HOSTILE}")
    return Step("completed", result="done")


def _inert(html: str) -> None:
    assert "<script" not in html and "<img" not in html and 'href="javascript' not in html


async def test_the_input_request_shows_the_agents_text_safely(
    app: FastAPI,
    client: httpx2.AsyncClient,
    settings: Settings,
    agents_server: LoopbackAgents,
) -> None:
    agent_id = await register(
        app, agents_server, Behaviour("asker", {"input_data": []}, _asks_with_hostile_text)
    )
    csrf = await _sign_up_in(client, settings, "cy@example.com")
    hired = await client.post(f"/agents/{agent_id}/hire", data={"csrf": csrf})
    assert hired.status_code == 303, hired.text
    await dispatcher(app).run_until_idle()
    page = await client.get(hired.headers["location"])
    section = page.text.split('id="input-title"', 1)[1].split("</section>", 1)[0]
    assert '<div class="agent-message agent-text" id="agent-message"><h1>Said' in section
    assert "<strong>display</strong>" in section and "<em>field words</em>" in section
    _inert(section)
    job_id = hired.headers["location"].rsplit("/", 1)[1]
    api = await client.get(f"/v1/jobs/{job_id}/input-request")
    assert api.json()["data"]["message"] == f"# Said {HOSTILE}"


async def test_the_reviewer_shows_its_draft_and_a_first_send_rejects_nothing(
    app: FastAPI,
    client: httpx2.AsyncClient,
    settings: Settings,
    agents_server: LoopbackAgents,
) -> None:
    agent_id = await register(app, agents_server, reviewer(), price=2)
    csrf = await _sign_up_in(client, settings, "di@example.com")
    hired = await client.post(
        f"/agents/{agent_id}/hire",
        data={"csrf": csrf, "in.text": "three small words", "maxCredits": "5"},
    )
    job_path = hired.headers["location"]
    await dispatcher(app).run_until_idle()
    page = await client.get(job_path)
    assert "Review: 3 words, 17 characters. Looks good." in page.text  # the draft
    assert "<strong>Draft review</strong>" in page.text
    # A required yes/no: two radio buttons, neither chosen.
    radios = re.findall(r'<input type="radio" id="f-approve(?:-no)?"[^>]*>', page.text)
    assert len(radios) == 2 and not any("checked" in r for r in radios)
    # Send without choosing: 400 on the field with the summary; the job still waits.
    sent = await client.post(f"{job_path}/input", data={"csrf": csrf, "in.note": "n"})
    assert sent.status_code == 400, sent.text
    assert 'class="error-summary"' in sent.text and 'href="#f-approve"' in sent.text
    assert 'id="e-f-approve"' in sent.text and 'aria-invalid="true"' in sent.text
    await dispatcher(app).run_until_idle()
    job_id = job_path.rsplit("/", 1)[1]
    assert (await client.get(f"/v1/jobs/{job_id}")).json()["data"]["status"] == "INPUT_REQUIRED"
    approved = await client.post(
        f"{job_path}/input", data={"csrf": csrf, "in.approve": "true", "in.note": "fine"}
    )
    assert approved.status_code == 303
    await dispatcher(app).run_until_idle()
    done = (await client.get(f"/v1/jobs/{job_id}")).json()["data"]
    assert done["status"] == "COMPLETED" and done["result"].endswith("Note: fine")


async def test_the_job_page_shows_the_jobs_own_input(
    app: FastAPI,
    client: httpx2.AsyncClient,
    settings: Settings,
    agents_server: LoopbackAgents,
) -> None:
    agent_id = await register(app, agents_server, reviewer(), price=2)
    csrf = await _sign_up_in(client, settings, "ed@example.com")
    hired = await client.post(
        f"/agents/{agent_id}/hire",
        data={"csrf": csrf, "in.text": f"line one\n{HOSTILE}", "maxCredits": "5"},
    )
    page = await client.get(hired.headers["location"])
    shown = page.text.split('id="job-input"', 1)[1].split("</dl>", 1)[0]
    assert "<dt>Text to review</dt>" in shown and "line one" in shown
    assert "&lt;script&gt;window.pwned=1&lt;/script&gt;" in shown and "<script" not in shown


def _two_fields() -> dict[str, Any]:
    return {
        "input_data": [
            {"id": "title", "type": "string", "name": "Title",
             "validations": [{"validation": "min", "value": "3"}]},
            {"id": "count", "type": "number", "name": "Count",
             "validations": [{"validation": "max", "value": "10"}]},
        ]
    }  # fmt: skip


async def test_the_hire_form_reports_every_error_at_once(
    app: FastAPI,
    client: httpx2.AsyncClient,
    settings: Settings,
    agents_server: LoopbackAgents,
) -> None:
    behaviour = Behaviour("two", _two_fields(), lambda job: Step("completed", result="ok"))
    agent_id = await register(app, agents_server, behaviour, price=2)
    csrf = await _sign_up_in(client, settings, "fa@example.com")
    bad = await client.post(
        f"/agents/{agent_id}/hire",
        data={"csrf": csrf, "in.title": "ab", "in.count": "99", "maxCredits": "1"},
    )
    assert bad.status_code == 400
    summary = bad.text.split('class="error-summary"', 1)[1].split("</div>", 1)[0]
    assert "There are 3 problems" in summary
    for anchor in ("f-title", "f-count", "maxCredits"):
        assert f'href="#{anchor}"' in summary
    assert 'aria-invalid="true" aria-describedby="e-f-title"' in bad.text
    assert 'aria-invalid="true" aria-describedby="e-f-count"' in bad.text
    assert 'aria-describedby="maxCredits-hint err-maxCredits" aria-invalid="true"' in bad.text
    assert "above the 1 you accept" in bad.text
    not_a_number = await client.post(
        f"/agents/{agent_id}/hire",
        data={"csrf": csrf, "in.title": "ab", "in.count": "5", "maxCredits": "lots"},
    )
    assert not_a_number.status_code == 400
    assert "There are 2 problems" in not_a_number.text
    assert (await client.get("/v1/jobs")).json()["data"] == []


async def test_favicon_answers(client: httpx2.AsyncClient) -> None:
    icon = await client.get("/favicon.ico")
    assert icon.status_code == 301 and icon.headers["location"] == "/static/favicon.svg"
    svg = await client.get("/static/favicon.svg")
    assert svg.status_code == 200 and svg.headers["content-type"].startswith("image/svg+xml")
    assert 'rel="icon" href="/static/favicon.svg"' in (await client.get("/sign-in")).text


async def test_the_new_key_flash_is_for_its_own_session_only(
    client: httpx2.AsyncClient, settings: Settings
) -> None:
    csrf = await _sign_up_in(client, settings, "gu@example.com")
    created = await client.post("/keys", data={"csrf": csrf, "name": "ci"})
    assert created.status_code == 303
    flash = created.cookies.get("agora_flash_keys")
    assert flash
    # Another session presenting the same cookie reads nothing.
    client.cookies.clear()
    await _sign_up_in(client, settings, "ha@example.com")
    client.cookies.set("agora_flash_keys", flash, path="/keys")
    other = await client.get("/keys")
    assert other.status_code == 200 and 'id="new-key"' not in other.text
    client.cookies.set("agora_flash_keys", "garbage!!", path="/keys")
    assert 'id="new-key"' not in (await client.get("/keys")).text
    assert _csrf(other.text)


async def test_sign_up_errors_are_tied_to_their_fields(client: httpx2.AsyncClient) -> None:
    weak = await client.post(
        "/sign-up",
        data={"csrf": "", "name": "Io", "email": "io@example.com", "password": "short"},
    )
    assert weak.status_code == 400, weak.text
    assert 'class="error-summary"' in weak.text and 'href="#password"' in weak.text
    assert 'aria-describedby="password-hint err-password" aria-invalid="true"' in weak.text
    assert 'id="err-password"' in weak.text


def _asks_in_groups(job: AgentJob) -> Step:
    if not job.provided:
        group = {
            "id": "g",
            "title": "Check the plan",
            "description": f"*Group words* {HOSTILE}",
            "input_data": [{"id": "fine", "type": "boolean", "name": "Fine?",
                            "data": {"default": True}}],
        }  # fmt: skip
        return Step("awaiting_input", input_schema={"input_groups": [group]})
    return Step("completed", result="done")


async def test_a_groups_description_is_shown_and_a_default_preselects_the_answer(
    app: FastAPI,
    client: httpx2.AsyncClient,
    settings: Settings,
    agents_server: LoopbackAgents,
) -> None:
    agent_id = await register(
        app, agents_server, Behaviour("grouper", {"input_data": []}, _asks_in_groups)
    )
    csrf = await _sign_up_in(client, settings, "jo@example.com")
    hired = await client.post(f"/agents/{agent_id}/hire", data={"csrf": csrf})
    await dispatcher(app).run_until_idle()
    page = await client.get(hired.headers["location"])
    section = page.text.split('id="input-title"', 1)[1].split("</section>", 1)[0]
    assert "<legend>Check the plan</legend>" in section and "<em>Group words</em>" in section
    _inert(section)
    assert re.search(r'id="f-fine" name="in.fine" value="true" checked', section)
    assert 'id="f-fine-no" name="in.fine" value="false">' in section
