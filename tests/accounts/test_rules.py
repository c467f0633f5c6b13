"""Bad input answers in the key family's shape naming the field; cookie flags; revoked sessions
refused at once; CSRF; passwords never in logs or responses; 20 wrong passwords → 429."""

from __future__ import annotations

import httpx2
import pytest
from fastapi import FastAPI

from agora.kit.logging import configure_logging
from agora.settings import Settings
from tests.accounts.helpers import (
    STRONG_PASSWORD,
    all_mail_text,
    last_link,
    sign_in,
    sign_up_verified,
)


def _field(response: httpx2.Response) -> str:
    body = response.json()
    assert body["code"] == str(response.status_code), body
    return str(body["details"][0]["field"])


async def test_bad_input_names_the_field(client: httpx2.AsyncClient, settings: Settings) -> None:
    weak = await client.post(
        "/v1/auth/sign-up", json={"email": "w@example.com", "password": "password123", "name": "W"}
    )
    assert weak.status_code == 400
    assert _field(weak) == "password"
    short = await client.post(
        "/v1/auth/sign-up", json={"email": "w@example.com", "password": "Ab1!", "name": "W"}
    )
    assert _field(short) == "password"
    assert "10" in short.json()["details"][0]["reason"]
    bad_email = await client.post(
        "/v1/auth/sign-up", json={"email": "nope", "password": STRONG_PASSWORD, "name": "W"}
    )
    assert bad_email.status_code == 400
    assert _field(bad_email) == "email"
    missing = await client.post("/v1/auth/sign-up", json={"email": "x@example.com"})
    assert missing.status_code == 400
    assert missing.json()["code"] == "400"

    await sign_up_verified(client, settings, "taken@example.com")
    duplicate = await client.post(
        "/v1/auth/sign-up",
        json={"email": "TAKEN@example.com", "password": STRONG_PASSWORD, "name": "Again"},
    )
    assert duplicate.status_code == 409
    assert duplicate.json()["message"].startswith("email:")

    # The sign-in path does not reveal whether an address has an account.
    client.cookies.clear()
    unknown = await client.post(
        "/v1/auth/sign-in", json={"email": "nobody@example.com", "password": STRONG_PASSWORD}
    )
    wrong = await client.post(
        "/v1/auth/sign-in", json={"email": "taken@example.com", "password": "wrong-but-long-1"}
    )
    assert unknown.status_code == wrong.status_code == 401
    assert unknown.json() == wrong.json()
    assert _field(wrong) == "credentials"
    for path in ("/v1/auth/password-reset", "/v1/auth/magic-link"):
        known = await client.post(path, json={"email": "taken@example.com"})
        other = await client.post(path, json={"email": "nobody@example.com"})
        assert known.status_code == other.status_code == 202
        assert known.json()["data"] == other.json()["data"]

    # Tokens: unknown, reused, expired-or-wrong-purpose — 400 naming "token".
    unknown_token = await client.post("/v1/auth/verify-email", json={"token": "not-a-token"})
    assert unknown_token.status_code == 400
    assert _field(unknown_token) == "token"
    _, reset = last_link(settings, "taken@example.com", "Reset")
    wrong_purpose = await client.post("/v1/auth/verify-email", json={"token": reset})
    assert _field(wrong_purpose) == "token"
    weak_reset = await client.post(
        "/v1/auth/password-reset/confirm", json={"token": reset, "password": "qwertyuiop1"}
    )
    assert _field(weak_reset) == "password"
    done = await client.post(
        "/v1/auth/password-reset/confirm",
        json={"token": reset, "password": STRONG_PASSWORD + "-new"},
    )
    assert done.status_code == 200, done.text
    # A reset signs every session out; the old password no longer works, the new one does.
    assert (await client.get("/v1/users/me")).status_code == 401
    client.cookies.clear()
    old_password = await client.post(
        "/v1/auth/sign-in", json={"email": "taken@example.com", "password": STRONG_PASSWORD}
    )
    assert old_password.status_code == 401
    reused = await client.post(
        "/v1/auth/password-reset/confirm",
        json={"token": reset, "password": STRONG_PASSWORD + "-newer"},
    )
    assert reused.status_code == 400
    assert "already been used" in reused.json()["details"][0]["reason"]
    _, planted = last_link(settings, "taken@example.com", "sign-in link")
    revoked = await client.post("/v1/auth/magic-link/sign-in", json={"token": planted})
    assert revoked.status_code == 400  # mailed before the reset: cancelled by it (issue 26)
    await client.post("/v1/auth/magic-link", json={"email": "taken@example.com"})
    _, magic = last_link(settings, "taken@example.com", "sign-in link")
    assert (
        await client.post("/v1/auth/magic-link/sign-in", json={"token": magic})
    ).status_code == 200
    again = await client.post("/v1/auth/magic-link/sign-in", json={"token": magic})
    assert again.status_code == 400
    assert _field(again) == "token"

    # API keys: scope outside the documented set, expiry in the past, foreign workspace.
    csrf = {"X-CSRF-Token": (await client.get("/v1/auth/session")).json()["data"]["csrfToken"]}
    for body, field in (
        ({"name": "k", "scopes": ["admin"]}, "scopes"),
        ({"name": "k", "expiresAt": "2001-01-01T00:00:00Z"}, "expiresAt"),
        ({"name": "  "}, "name"),
    ):
        refused = await client.post("/v1/api-keys", json=body, headers=csrf)
        assert refused.status_code == 400, refused.text
        assert _field(refused) == field


async def test_invitation_for_another_address_and_csrf(
    client: httpx2.AsyncClient, settings: Settings
) -> None:
    owner = await sign_up_verified(client, settings, "boss@example.com")
    org = (await client.post("/v1/organizations", json={"name": "Initech"}, headers=owner)).json()[
        "data"
    ]
    assert org["slug"] == "initech"
    sent = await client.post(
        f"/v1/organizations/{org['id']}/invitations",
        json={"email": "invitee@example.com", "role": "admin"},
        headers=owner,
    )
    assert sent.status_code == 201, sent.text
    url, token = last_link(settings, "invitee@example.com", "Join Initech")
    assert token == sent.json()["data"]["token"]
    assert url == sent.json()["data"]["url"]

    intruder = await sign_up_verified(client, settings, "intruder@example.com")
    stolen = await client.post("/v1/invitations/accept", json={"token": token}, headers=intruder)
    assert stolen.status_code == 403
    assert _field(stolen) == "token"

    # CSRF: a cookie write without the header is 403; with it, it works; keys need none.
    no_csrf = await client.post("/v1/organizations", json={"name": "Sneaky"})
    assert no_csrf.status_code == 403
    assert _field(no_csrf) == "X-CSRF-Token"
    forged = await client.post(
        "/v1/organizations", json={"name": "Sneaky"}, headers={"X-CSRF-Token": "0" * 64}
    )
    assert forged.status_code == 403
    assert (await client.get("/v1/organizations")).status_code == 200  # reads need none

    invitee = await sign_up_verified(client, settings, "invitee@example.com")
    joined = await client.post("/v1/invitations/accept", json={"token": token}, headers=invitee)
    assert joined.status_code == 200, joined.text
    assert joined.json()["data"]["role"] == "admin"

    # The last owner cannot leave; revoked invitations stop working.
    owner = await sign_in(client, "boss@example.com")
    members = (await client.get(f"/v1/organizations/{org['id']}/members")).json()["data"]
    boss = next(m for m in members if m["email"] == "boss@example.com")
    leave = await client.delete(
        f"/v1/organizations/{org['id']}/members/{boss['userId']}", headers=owner
    )
    assert leave.status_code == 409
    link = await client.post(
        f"/v1/organizations/{org['id']}/invitations", json={"maxUses": 3}, headers=owner
    )
    revoked = await client.delete(
        f"/v1/organizations/{org['id']}/invitations/{link.json()['data']['id']}", headers=owner
    )
    assert revoked.status_code == 200
    intruder = await sign_in(client, "intruder@example.com")
    late = await client.post(
        "/v1/invitations/accept", json={"token": link.json()["data"]["token"]}, headers=intruder
    )
    assert late.status_code == 400
    assert "revoked" in late.json()["details"][0]["reason"]
    # Another user's organization is a 404, never a 403.
    hidden = await client.get(f"/v1/organizations/{org['id']}/members")
    assert hidden.status_code == 404


def _browser(app: FastAPI, cookies: dict[str, str] | None = None) -> httpx2.AsyncClient:
    transport = httpx2.ASGITransport(app=app)
    return httpx2.AsyncClient(transport=transport, base_url="http://testserver", cookies=cookies)


async def test_cookie_flags_and_revoked_session_refused_at_once(
    client: httpx2.AsyncClient, settings: Settings, app: FastAPI
) -> None:
    await sign_up_verified(client, settings, "cookie@example.com")
    client.cookies.clear()
    response = await client.post(
        "/v1/auth/sign-in", json={"email": "cookie@example.com", "password": STRONG_PASSWORD}
    )
    cookies = response.headers.get_list("set-cookie")
    session_cookie = next(c for c in cookies if c.startswith("agora_session="))
    csrf_cookie = next(c for c in cookies if c.startswith("agora_session_csrf="))
    lowered = session_cookie.lower()
    assert "httponly" in lowered
    assert "samesite=lax" in lowered
    assert "path=/" in lowered
    assert "secure" not in lowered  # the public URL is http here
    assert "httponly" not in csrf_cookie.lower()
    first = client.cookies.get("agora_session")
    csrf = {"X-CSRF-Token": response.json()["data"]["csrfToken"]}

    # Sign-in rotates: a second sign-in from the same browser revokes the first session.
    second = await client.post(
        "/v1/auth/sign-in", json={"email": "cookie@example.com", "password": STRONG_PASSWORD}
    )
    assert client.cookies.get("agora_session") != first
    csrf = {"X-CSRF-Token": second.json()["data"]["csrfToken"]}
    async with _browser(app, {"agora_session": str(first)}) as stale:
        assert (await stale.get("/v1/users/me")).status_code == 401

    # Another browser; list, then revoke it from here: its next request is refused.
    async with _browser(app) as other:
        await other.post(
            "/v1/auth/sign-in", json={"email": "cookie@example.com", "password": STRONG_PASSWORD}
        )
        assert (await other.get("/v1/users/me")).status_code == 200
        listed = (await client.get("/v1/auth/sessions")).json()["data"]
        # The sign-up's session, this browser's (current) and the other browser's (newest).
        assert len(listed) == 3
        assert sum(s["current"] for s in listed) == 1
        theirs = listed[0]
        assert not theirs["current"]
        gone = await client.delete(f"/v1/auth/sessions/{theirs['id']}", headers=csrf)
        assert gone.status_code == 200
        assert (await other.get("/v1/users/me")).status_code == 401

    out = await client.post("/v1/auth/sign-out", headers=csrf)
    assert out.status_code == 200
    assert (await client.get("/v1/users/me")).status_code == 401


async def test_secure_cookie_when_public_url_is_https(
    client: httpx2.AsyncClient, settings: Settings
) -> None:
    await sign_up_verified(client, settings, "tls@example.com")
    settings.public_url = "https://agora.example.com"
    client.cookies.clear()
    response = await client.post(
        "/v1/auth/sign-in", json={"email": "tls@example.com", "password": STRONG_PASSWORD}
    )
    assert "secure" in response.headers["set-cookie"].lower()


async def test_password_never_in_logs_or_responses(
    client: httpx2.AsyncClient, settings: Settings, capsys: pytest.CaptureFixture[str]
) -> None:
    configure_logging("DEBUG", json=True)
    try:
        await sign_up_verified(client, settings, "quiet@example.com")
        client.cookies.clear()
        wrong = await client.post(
            "/v1/auth/sign-in", json={"email": "quiet@example.com", "password": "Wrong-Horse-99"}
        )
        responses = [wrong.text]
        for path in ("/v1/users/me", "/v1/auth/session"):
            await sign_in(client, "quiet@example.com")
            responses.append((await client.get(path)).text)
    finally:
        configure_logging("WARNING")
    captured = capsys.readouterr()
    logs = captured.err + captured.out
    assert "mail_written" in logs  # the log shows the mail went out …
    assert "?token=" not in logs  # … but not its secret link
    for text in (logs, *responses):
        assert STRONG_PASSWORD not in text
        assert "Wrong-Horse-99" not in text
    assert STRONG_PASSWORD not in all_mail_text(settings)


async def test_twenty_wrong_passwords_get_429_with_retry_after(
    client: httpx2.AsyncClient, settings: Settings
) -> None:
    await sign_up_verified(client, settings, "target@example.com")
    client.cookies.clear()
    statuses = []
    for attempt in range(20):
        response = await client.post(
            "/v1/auth/sign-in",
            json={"email": "target@example.com", "password": f"not-the-password-{attempt}"},
        )
        statuses.append(response.status_code)
    assert statuses == [401] * 19 + [429]
    assert int(response.headers["Retry-After"]) > 0
    assert response.json()["code"] == "429"
    # Even the right password waits now; an unknown address is limited the same way.
    right = await client.post(
        "/v1/auth/sign-in", json={"email": "target@example.com", "password": STRONG_PASSWORD}
    )
    assert right.status_code == 429
    assert "Retry-After" in right.headers
