"""The console's pages (in-process): an operator's session only; actions need a recent proof;
the same services as the admin API."""

from __future__ import annotations

from datetime import timedelta

import httpx2
from fastapi import FastAPI
from sqlalchemy import update

from agora.accounts import provisioning as identity
from agora.accounts import repository as identity_repo
from agora.kit.timeutil import utcnow
from agora.models import BrowserSession
from agora.settings import Settings
from tests.accounts.helpers import STRONG_PASSWORD, sign_up_verified
from tests.conftest import MakeUser
from tests.jobs.helpers import echo
from tests.support.agents import LoopbackAgents


async def _operator(app: FastAPI, client: httpx2.AsyncClient, settings: Settings) -> str:
    """Sign up and in a person, make them an operator (an admin key); the CSRF token."""
    headers = await sign_up_verified(client, settings, "op@example.com", "Olga Operator")
    async with app.state.db.transaction() as session:
        user = await identity_repo.user_by_email(session, "op@example.com")
        assert user is not None
        await identity.create_key(session, user=user, kind="admin")
    return headers["X-CSRF-Token"]


async def test_not_an_operator_sees_nothing(client: httpx2.AsyncClient, settings: Settings) -> None:
    await sign_up_verified(client, settings, "plain@example.com")
    for path in ("/admin", "/admin/users", "/admin/reviews", "/admin/audit", "/admin/audit/export"):
        response = await client.get(path)
        assert response.status_code == 404, path
    client.cookies.clear()
    anonymous = await client.get("/admin/users")
    assert anonymous.status_code == 303 and "/sign-in" in anonymous.headers["location"]


async def test_operator_finds_suspends_and_grants(
    app: FastAPI, client: httpx2.AsyncClient, settings: Settings, make_user: MakeUser
) -> None:
    csrf = await _operator(app, client, settings)
    person = await make_user(name="Mallory", email="mallory@example.com")
    other = await make_user(name="Grace", email="grace@example.com")
    board = await client.get("/admin")
    assert board.status_code == 200 and "Pending reviews" in board.text
    found = await client.get("/admin/users", params={"q": "mallory@"})
    assert found.status_code == 200 and f"/admin/users/{person.user_id}" in found.text
    assert "grace@example.com" not in found.text

    no_reason = await client.post(
        f"/admin/users/{person.user_id}/suspend", data={"csrf": csrf, "reason": " "}
    )
    assert no_reason.status_code == 400 and "say why" in no_reason.text
    suspended = await client.post(
        f"/admin/users/{person.user_id}/suspend", data={"csrf": csrf, "reason": "spam"}
    )
    assert suspended.status_code == 303, suspended.text
    assert (await client.get("/v1/credits", headers=person.key_headers)).status_code == 401
    page = await client.get(suspended.headers["location"])
    assert "Suspended since" in page.text and "user.suspended" in page.text

    no_csrf = await client.post(
        f"/admin/users/{other.user_id}/credits", data={"amount": "3", "reason": "x"}
    )
    assert no_csrf.status_code == 403
    granted = await client.post(
        f"/admin/users/{other.user_id}/credits",
        data={"csrf": csrf, "amount": "3", "reason": "support ticket 9"},
    )
    assert granted.status_code == 303, granted.text
    credits = await client.get("/v1/credits", headers=other.key_headers)
    assert credits.json()["data"]["balance"] == 3

    audit = await client.get("/admin/audit", params={"action": "credits.granted"})
    assert "support ticket 9" in audit.text and str(other.user_id) in audit.text
    export = await client.get("/admin/audit/export")
    assert export.headers["content-type"].startswith("text/csv") and "user.suspended" in export.text


async def test_actions_need_a_recent_proof_and_never_on_yourself(
    app: FastAPI, client: httpx2.AsyncClient, settings: Settings, make_user: MakeUser
) -> None:
    csrf = await _operator(app, client, settings)
    person = await make_user()
    async with app.state.db.transaction() as session:  # the sign-in is an hour old
        await session.execute(
            update(BrowserSession).values(
                created_at=utcnow() - timedelta(hours=1), authenticated_at=None
            )
        )
    stale = await client.post(
        f"/admin/users/{person.user_id}/credits",
        data={"csrf": csrf, "amount": "1", "reason": "x"},
    )
    assert stale.status_code == 403 and "confirm your password" in stale.text.lower()
    wrong = await client.post(
        "/admin/reauthenticate", data={"csrf": csrf, "password": "not-it-at-all"}
    )
    assert wrong.status_code == 403
    confirmed = await client.post(
        "/admin/reauthenticate",
        data={"csrf": csrf, "password": STRONG_PASSWORD, "next": f"/admin/users/{person.user_id}"},
    )
    assert confirmed.status_code == 303
    assert confirmed.headers["location"] == f"/admin/users/{person.user_id}"
    fresh = await client.post(
        f"/admin/users/{person.user_id}/credits",
        data={"csrf": csrf, "amount": "1", "reason": "x"},
    )
    assert fresh.status_code == 303, fresh.text

    async with app.state.db.transaction(write=False) as session:
        me = await identity_repo.user_by_email(session, "op@example.com")
        assert me is not None
    mine = await client.post(f"/admin/users/{me.id}/suspend", data={"csrf": csrf, "reason": "oops"})
    assert mine.status_code == 403 and "own account" in mine.text


async def test_the_review_queue_approves_and_rejects(
    app: FastAPI,
    client: httpx2.AsyncClient,
    settings: Settings,
    make_user: MakeUser,
    agents_server: LoopbackAgents,
) -> None:
    csrf = await _operator(app, client, settings)
    developer = await make_user()
    ids = []
    for name in ("Candidate", "Dud"):
        submitted = await client.post(
            "/v1/developer/agents",
            json={"baseUrl": agents_server.serve(echo(name=name.lower())), "name": name},
            headers=developer.bearer_headers,
        )
        assert submitted.status_code == 201, submitted.text
        ids.append(submitted.json()["data"]["id"])
    queue = await client.get("/admin/reviews")
    assert queue.status_code == 200, queue.text
    assert f'id="review-{ids[0]}"' in queue.text and f'id="review-{ids[1]}"' in queue.text
    approved = await client.post(f"/admin/reviews/{ids[0]}/approve", data={"csrf": csrf})
    assert approved.status_code == 303, approved.text
    rejected = await client.post(
        f"/admin/reviews/{ids[1]}/reject", data={"csrf": csrf, "reason": "no docs"}
    )
    assert rejected.status_code == 303, rejected.text
    assert "queue-empty" in (await client.get("/admin/reviews")).text
    listed = await client.get(f"/v1/agents/{ids[0]}")
    assert listed.status_code == 200
    audit = await client.get("/admin/audit")
    assert "agent.approved" in audit.text and "agent.rejected" in audit.text
