"""Issue 26, item 7: a password reset (or change) evicts whoever held the account — every session,
every outstanding mailed link, the API keys sessions made (the reset page says so first) — and
a browser session creates keys only after a recent password or magic-link proof."""

from __future__ import annotations

from datetime import timedelta

import httpx2
from sqlalchemy import update

from agora.kit.db import Database
from agora.kit.timeutil import utcnow
from agora.models import BrowserSession
from agora.settings import Settings
from tests.accounts.helpers import STRONG_PASSWORD, last_link, sign_up_verified
from tests.conftest import TestUser

EMAIL = "victim@example.com"
NEW_PASSWORD = "copper-lantern-58-meadow"


async def _session_key(client: httpx2.AsyncClient, csrf: dict[str, str], name: str) -> str:
    made = await client.post("/v1/api-keys", json={"name": name}, headers=csrf)
    assert made.status_code == 201, made.text
    return str(made.json()["data"]["key"])


async def _key_made_with_a_key(client: httpx2.AsyncClient, key: str) -> str:
    made = await client.post("/v1/api-keys", json={"name": "by key"}, headers={"x-api-key": key})
    assert made.status_code == 201, made.text
    return str(made.json()["data"]["key"])


async def _works(client: httpx2.AsyncClient, key: str) -> int:
    return (await client.get("/v1/users/me", headers={"x-api-key": key})).status_code


async def _magic_token(client: httpx2.AsyncClient, settings: Settings) -> str:
    assert (await client.post("/v1/auth/magic-link", json={"email": EMAIL})).status_code == 202
    return last_link(settings, EMAIL, "sign-in link")[1]


async def test_a_reset_evicts_sessions_links_and_the_keys_sessions_made(
    client: httpx2.AsyncClient, settings: Settings
) -> None:
    csrf = await sign_up_verified(client, settings, EMAIL)
    old_cookies = dict(client.cookies)
    by_session = await _session_key(client, csrf, "made in the browser")
    by_key = await _key_made_with_a_key(client, by_session)
    planted_link = await _magic_token(client, settings)  # mailed before the reset

    client.cookies.clear()
    asked = await client.post("/v1/auth/password-reset", json={"email": EMAIL})
    assert asked.status_code == 202
    _, reset = last_link(settings, EMAIL, "Reset")
    page = await client.get(f"/reset-password?token={reset}")  # the confirm step says so
    assert page.status_code == 200
    assert "revokes every API key created from a browser session" in page.text
    assert "made in the browser" in page.text and "by key" not in page.text
    done = await client.post(
        "/v1/auth/password-reset/confirm", json={"token": reset, "password": NEW_PASSWORD}
    )
    assert done.status_code == 200, done.text

    client.cookies.update(old_cookies)
    assert (await client.get("/v1/auth/session")).status_code == 401  # the old session
    client.cookies.clear()
    used = await client.post("/v1/auth/magic-link/sign-in", json={"token": planted_link})
    assert used.status_code == 400, used.text  # the link mailed before is cancelled
    assert used.json()["details"][0]["field"] == "token"
    assert await _works(client, by_session) == 401  # a session made it: revoked
    assert await _works(client, by_key) == 200  # made with a key: stays (it is listed)
    signed = await client.post("/v1/auth/sign-in", json={"email": EMAIL, "password": NEW_PASSWORD})
    assert signed.status_code == 200


async def test_a_password_change_evicts_the_same_and_keeps_this_browser_signed_in(
    client: httpx2.AsyncClient, settings: Settings
) -> None:
    csrf = await sign_up_verified(client, settings, EMAIL)
    by_session = await _session_key(client, csrf, "browser key")
    planted_link = await _magic_token(client, settings)
    other_browser = httpx2.Cookies(client.cookies)
    wrong = await client.post(
        "/v1/auth/password",
        json={"currentPassword": "not-it-at-all-1", "newPassword": NEW_PASSWORD},
        headers=csrf,
    )
    assert wrong.status_code == 403 and wrong.json()["details"][0]["field"] == "password"
    by_key = await client.post(
        "/v1/auth/password",
        json={"currentPassword": STRONG_PASSWORD, "newPassword": NEW_PASSWORD},
        headers={"x-api-key": by_session},
    )
    assert by_key.status_code == 404  # a key cannot change the password
    changed = await client.post(
        "/v1/auth/password",
        json={"currentPassword": STRONG_PASSWORD, "newPassword": NEW_PASSWORD},
        headers=csrf,
    )
    assert changed.status_code == 200, changed.text
    assert (await client.get("/v1/auth/session")).status_code == 200  # the new session
    assert await _works(client, by_session) == 401
    client.cookies = other_browser
    assert (await client.get("/v1/auth/session")).status_code == 401
    client.cookies.clear()
    used = await client.post("/v1/auth/magic-link/sign-in", json={"token": planted_link})
    assert used.status_code == 400


async def test_a_session_creates_keys_only_after_a_recent_password(
    client: httpx2.AsyncClient, settings: Settings, db: Database
) -> None:
    csrf = await sign_up_verified(client, settings, EMAIL)
    assert settings.accounts.key_reauth_minutes == 10
    async with db.transaction() as session:  # the sign-in was half an hour ago
        await session.execute(
            update(BrowserSession).values(created_at=utcnow() - timedelta(minutes=30))
        )
    stale = await client.post("/v1/api-keys", json={"name": "late"}, headers=csrf)
    assert stale.status_code == 403, stale.text
    assert stale.json()["details"][0]["field"] == "password"
    web_csrf = csrf["X-CSRF-Token"]
    page = await client.post("/keys", data={"csrf": web_csrf, "name": "late"})
    assert page.status_code == 403 and "re-enter your password" in page.text
    wrong = await client.post("/v1/auth/reauthenticate", json={"password": "wrong-one-123"})
    assert wrong.status_code == 403  # no CSRF header either way: refused
    wrong = await client.post(
        "/v1/auth/reauthenticate", json={"password": "wrong-one-123"}, headers=csrf
    )
    assert wrong.status_code == 403 and wrong.json()["details"][0]["field"] == "password"
    with_password = await client.post(
        "/keys", data={"csrf": web_csrf, "name": "web key", "password": STRONG_PASSWORD}
    )
    assert with_password.status_code == 303  # to /keys, which shows the new key once
    assert 'id="new-key"' in (await client.get("/keys")).text
    async with db.transaction() as session:
        await session.execute(
            update(BrowserSession).values(
                created_at=utcnow() - timedelta(minutes=30),
                authenticated_at=utcnow() - timedelta(minutes=30),
            )
        )
    assert (await client.post("/v1/api-keys", json={"name": "x"}, headers=csrf)).status_code == 403
    again = await client.post(
        "/v1/auth/reauthenticate", json={"password": STRONG_PASSWORD}, headers=csrf
    )
    assert again.status_code == 200, again.text
    key = await _session_key(client, csrf, "fresh")
    # A key is not asked (it is no browser session); a fresh magic link counts as a proof.
    await _key_made_with_a_key(client, key)
    client.cookies.clear()
    token = await _magic_token(client, settings)
    signed = await client.post("/v1/auth/magic-link/sign-in", json={"token": token})
    assert signed.status_code == 200
    fresh = {"X-CSRF-Token": signed.json()["data"]["csrfToken"]}
    await _session_key(client, fresh, "after the link")


async def test_a_coworker_key_from_a_stale_session_needs_the_password_too(
    client: httpx2.AsyncClient, settings: Settings, db: Database, admin: TestUser
) -> None:
    csrf = await sign_up_verified(client, settings, EMAIL)
    made = await client.post("/v1/coworkers", json={"name": "Scribe"}, headers=csrf)
    assert made.status_code == 201, made.text
    coworker_id = made.json()["data"]["id"]
    whitelisted = await client.post(
        f"/v1/admin/coworkers/{coworker_id}/whitelist", headers=admin.bearer_headers
    )
    assert whitelisted.status_code == 200, whitelisted.text
    async with db.transaction() as session:
        await session.execute(
            update(BrowserSession).values(created_at=utcnow() - timedelta(minutes=30))
        )
    path = f"/v1/coworkers/{coworker_id}/api-keys"
    stale = await client.post(path, json={"name": "runtime"}, headers=csrf)
    assert stale.status_code == 403, stale.text
    proof = await client.post(
        "/v1/auth/reauthenticate", json={"password": STRONG_PASSWORD}, headers=csrf
    )
    assert proof.status_code == 200, proof.text
    issued = await client.post(path, json={"name": "runtime"}, headers=csrf)
    assert issued.status_code == 201, issued.text
    token = issued.json()["data"]["token"]
    assert (await client.get("/v1/coworkers/me", headers={"x-api-key": token})).status_code == 200
    changed = await client.post(
        "/v1/auth/password",
        json={"currentPassword": STRONG_PASSWORD, "newPassword": NEW_PASSWORD},
        headers=csrf,
    )
    assert changed.status_code == 200, changed.text
    # A session issued it: the password change revokes it too.
    assert (await client.get("/v1/coworkers/me", headers={"x-api-key": token})).status_code == 401
