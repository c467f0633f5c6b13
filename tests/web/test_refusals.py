"""A page that refuses leaves the database and the outside world as they were: the request's
unit of work commits only on a 2xx/3xx answer (kit/units.py), whether the refusal is an error
page rendered by the endpoint (a 402 on the hire form) or an exception the app renders.

Each case posts a form as a signed-in person and compares every table before and after (less the
after-commit bookkeeping columns), the mail folder, and what the agents received."""

from __future__ import annotations

import uuid
from collections.abc import Awaitable, Callable

import httpx2
import pytest
from fastapi import FastAPI

from agora.kit.db import Database
from agora.settings import Settings
from tests.accounts.helpers import STRONG_PASSWORD
from tests.jobs.helpers import dispatcher, echo, register, reviewer
from tests.support.agents import LoopbackAgents
from tests.support.snapshot import changed_tables, snapshot
from tests.web.test_pages import _sign_up_in


@pytest.fixture
def settings(settings: Settings) -> Settings:
    """A new account starts with no credits (the default), unlike the rest of the web tests."""
    return settings.with_changes(welcome_credits=0)


def _mail_count(settings: Settings) -> int:
    folder = settings.data_dir / "mail"
    return len(list(folder.glob("*.eml"))) if folder.exists() else 0


async def _refused_without_trace(
    db: Database,
    settings: Settings,
    attempt: Callable[[], Awaitable[httpx2.Response]],
    status: int,
) -> httpx2.Response:
    before, mails = await snapshot(db), _mail_count(settings)
    response = await attempt()
    assert response.status_code == status, response.text
    assert changed_tables(before, await snapshot(db)) == []
    assert _mail_count(settings) == mails
    return response


async def test_a_person_without_credits_hiring_a_paid_agent_gets_a_refusal_and_nothing_runs(
    app: FastAPI,
    client: httpx2.AsyncClient,
    db: Database,
    settings: Settings,
    agents_server: LoopbackAgents,
) -> None:
    paid = reviewer()
    agent_id = await register(app, agents_server, paid, price=2)
    csrf = await _sign_up_in(client, settings, "nocredits@example.com")

    refused = await _refused_without_trace(
        db,
        settings,
        lambda: client.post(
            f"/agents/{agent_id}/hire",
            data={"csrf": csrf, "in.text": "Please review this", "maxCredits": "5"},
        ),
        402,
    )
    assert "Not enough credits" in refused.text
    await dispatcher(app).run_until_idle()  # nothing to claim
    assert paid.started == []  # the agent was never called
    assert (await client.get("/v1/jobs")).json()["data"] == []


async def test_every_refusing_web_form_writes_nothing(
    app: FastAPI,
    client: httpx2.AsyncClient,
    db: Database,
    settings: Settings,
    agents_server: LoopbackAgents,
) -> None:
    free = echo()
    agent_id = await register(app, agents_server, free)
    email = "refusals@example.com"
    csrf = await _sign_up_in(client, settings, email)
    stranger = str(uuid.uuid4())

    cases: list[tuple[str, dict[str, str], int]] = [
        # The hire form: a field error, and a price above the accepted maximum.
        (f"/agents/{agent_id}/hire", {"csrf": csrf, "maxCredits": "5"}, 400),
        (f"/agents/{agent_id}/hire", {"csrf": csrf, "in.text": "x", "maxCredits": "nope"}, 400),
        # Accounts: a taken address, a wrong password, tokens that are not ours.
        (
            "/sign-up",
            {"csrf": csrf, "name": "Again", "email": email, "password": STRONG_PASSWORD},
            409,
        ),
        ("/sign-in", {"csrf": csrf, "email": email, "password": "not-the-password"}, 401),
        ("/reset-password", {"csrf": csrf, "token": "forged", "password": STRONG_PASSWORD}, 400),
        ("/verify-email", {"csrf": csrf, "token": "forged"}, 400),
        ("/magic-link", {"csrf": csrf, "token": "forged"}, 400),
        ("/invitations/accept", {"csrf": csrf, "token": "forged"}, 400),
        ("/workspace", {"csrf": csrf, "workspaceId": stranger}, 404),
        # Work: a project without a name, another workspace's job and task.
        ("/projects", {"csrf": csrf, "name": "   "}, 400),
        (f"/jobs/{stranger}/cancel", {"csrf": csrf}, 404),
        (f"/jobs/{stranger}/share", {"csrf": csrf}, 404),
        (f"/tasks/{stranger}/comment", {"csrf": csrf, "body": "hello"}, 404),
        (f"/keys/{stranger}/revoke", {"csrf": csrf}, 404),
        # A form without its CSRF token.
        ("/projects", {"name": "Sneaky"}, 403),
    ]
    for path, data, status in cases:
        await _refused_without_trace(
            db, settings, lambda path=path, data=data: client.post(path, data=data), status
        )
    await dispatcher(app).run_until_idle()
    assert free.started == []
