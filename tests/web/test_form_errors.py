"""Form errors on the pages without a summary of their own (issue 31, defect 10), through HTTP on
SQLite and PostgreSQL: every refused form starts with the error summary (focused by app.js),
linking to each field's message; the field has aria-invalid and aria-describedby; the messages
are full sentences; sign-in ties its refusals to their fields and offers a new confirmation."""

from __future__ import annotations

import re

import httpx2

from agora.settings import Settings
from tests.accounts.helpers import STRONG_PASSWORD
from tests.web.test_pages import _csrf, _sign_up_in


async def test_a_refused_project_form_has_the_summary_and_sentences(
    client: httpx2.AsyncClient, settings: Settings
) -> None:
    csrf = await _sign_up_in(client, settings, "pat@example.com")
    refused = await client.post("/projects", data={"csrf": csrf, "name": "   "})
    assert refused.status_code == 400
    assert 'class="error-summary"' in refused.text and "There is a problem" in refused.text
    assert 'href="#err-name"' in refused.text
    assert re.search(r'id="project-name"[^>]*aria-invalid="true" aria-describedby="err-name"',
                     refused.text)  # fmt: skip
    message = re.search(r'<p class="error" id="err-name">([^<]+)</p>', refused.text)
    assert message and message.group(1)[0].isupper() and message.group(1).endswith(".")
    assert message.group(1).startswith("Name ")


async def test_sign_in_refusals_on_their_fields_with_the_summary(
    client: httpx2.AsyncClient, settings: Settings
) -> None:
    await _sign_up_in(client, settings, "sam@example.com")
    client.cookies.clear()
    page = await client.get("/sign-in")
    wrong = await client.post(
        "/sign-in",
        data={"csrf": _csrf(page.text), "email": "sam@example.com", "password": "not-it-at-all"},
    )
    assert wrong.status_code == 401
    assert 'href="#password"' in wrong.text and 'class="error-summary"' in wrong.text
    assert 'aria-invalid="true" aria-describedby="err-password"' in wrong.text
    assert "The email address or the password is wrong." in wrong.text

    await client.post(
        "/sign-up",
        data={"csrf": "", "name": "Una", "email": "una@example.com", "password": STRONG_PASSWORD},
    )
    unconfirmed = await client.post(
        "/sign-in",
        data={"csrf": _csrf(page.text), "email": "una@example.com", "password": STRONG_PASSWORD},
    )
    assert unconfirmed.status_code == 403
    assert 'href="#email"' in unconfirmed.text
    assert 'aria-invalid="true" aria-describedby="err-email"' in unconfirmed.text
    assert "Confirm your email address first" in unconfirmed.text
    assert 'id="resend-verification"' in unconfirmed.text
