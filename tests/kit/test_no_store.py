"""``Cache-Control: no-store`` on every answer that carries a secret (docs/security.md,
"Caching"): the request layer adds it to every answer that does not set its own, API and pages,
errors included; static files are left to the client's cache."""

from __future__ import annotations

import re

import httpx2

from agora.settings import Settings
from tests.accounts.helpers import STRONG_PASSWORD, last_link, sign_up_verified
from tests.conftest import MakeUser

_CSRF = re.compile(r'name="csrf" value="([^"]*)"')


def _no_store(response: httpx2.Response, what: str) -> None:
    assert response.headers.get("cache-control") == "no-store", (what, dict(response.headers))


async def test_every_answer_with_a_secret_is_no_store(
    client: httpx2.AsyncClient, settings: Settings, make_user: MakeUser
) -> None:
    email = "cache@example.com"
    await sign_up_verified(client, settings, email)
    answers: dict[str, httpx2.Response] = {}
    # The sign-in answer (session cookie + CSRF token) and the session answer (its CSRF token).
    answers["sign-in"] = await client.post(
        "/v1/auth/sign-in", json={"email": email, "password": STRONG_PASSWORD}
    )
    csrf = {"X-CSRF-Token": answers["sign-in"].json()["data"]["csrfToken"]}
    answers["session"] = await client.get("/v1/auth/session")
    assert "csrfToken" in answers["session"].json()["data"]
    # A new key, shown once.
    answers["new key"] = await client.post("/v1/api-keys", json={"name": "k"}, headers=csrf)
    assert answers["new key"].status_code == 201, answers["new key"].text
    key = {"x-api-key": answers["new key"].json()["data"]["key"]}
    answers["key list"] = await client.get("/v1/api-keys", headers=key)
    # A webhook's signing secret, shown once.
    answers["webhook secret"] = await client.put(
        "/v1/notifications/webhook", json={"url": "https://hooks.example.com/agora"}, headers=key
    )
    assert answers["webhook secret"].json()["data"]["secret"], answers["webhook secret"].text
    # A magic link's sign-in by GET, and errors.
    await client.post("/v1/auth/magic-link", json={"email": email})
    _, token = last_link(settings, email, "sign-in link")
    answers["magic link"] = await client.get(f"/v1/auth/magic-link?token={token}")
    answers["401"] = await client.get("/v1/users/me", headers={"x-api-key": "agora_sk_nope"})
    user = await make_user()
    answers["key-authenticated read"] = await client.get("/v1/users/me", headers=user.key_headers)
    answers["public catalogue"] = await client.get("/v1/agents")
    # Pages: the keys page after creating a key (the key in the HTML), the sign-in redirect
    # that sets the cookie, the reset form holding its token.
    page = await client.get("/keys")
    found = _CSRF.search(page.text)
    assert found, page.text
    created = await client.post("/keys", data={"csrf": found.group(1), "name": "web"})
    assert created.status_code == 303  # Post/Redirect/Get: the next page shows the key once
    answers["keys page with a new key"] = await client.get("/keys")
    assert "agora_" in answers["keys page with a new key"].text
    client.cookies.clear()
    answers["web sign-in redirect"] = await client.post(
        "/sign-in", data={"csrf": "", "email": email, "password": STRONG_PASSWORD}
    )
    assert answers["web sign-in redirect"].status_code == 303
    answers["reset form"] = await client.get("/reset-password?token=abc")
    for what, response in answers.items():
        assert response.status_code < 500, (what, response.text)
        _no_store(response, what)
    # Static files hold no secret: no no-store, the client may cache them.
    static = await client.get("/static/job.js")
    assert static.status_code == 200
    assert static.headers.get("cache-control") != "no-store"
