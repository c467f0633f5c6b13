"""Passkeys over HTTP (accounts/passkeys.py) with a software authenticator built after the
WebAuthn spec (tests/support/webauthn.py): adding one, signing in with it and no password,
removing it, the second step after the password with a passkey or a recovery code, and the
refusals — a challenge never issued, a challenge replayed, one issued for another ceremony or
another person, a signature counter that does not move forward, another person's passkey."""

from __future__ import annotations

import html
import json
import re
from datetime import timedelta
from typing import Any

import httpx2
from sqlalchemy import update

from agora.kit.db import Database
from agora.kit.timeutil import utcnow
from agora.models import BrowserSession
from agora.settings import Settings
from tests.accounts.helpers import STRONG_PASSWORD, last_link, sign_in, sign_up_verified
from tests.conftest import MakeUser
from tests.support.webauthn import SoftAuthenticator, b64url

ORIGIN, RP_ID = "http://testserver", "testserver"  # the tests' AGORA_PUBLIC_URL


async def _options(client: httpx2.AsyncClient, path: str, csrf: dict[str, str]) -> dict[str, Any]:
    answer = await client.post(path, headers=csrf)
    assert answer.status_code == 200, answer.text
    options: dict[str, Any] = answer.json()["data"]["publicKey"]
    return options


async def _add_passkey(
    client: httpx2.AsyncClient, csrf: dict[str, str], name: str = "Laptop"
) -> SoftAuthenticator:
    authenticator = SoftAuthenticator(ORIGIN, RP_ID)
    options = await _options(client, "/v1/auth/passkeys/registration-options", csrf)
    assert options["rp"] == {"name": "Agora", "id": RP_ID}
    assert options["authenticatorSelection"]["residentKey"] == "required"
    added = await client.post(
        "/v1/auth/passkeys",
        json={"name": name, "credential": authenticator.create(options)},
        headers=csrf,
    )
    assert added.status_code == 201, added.text
    assert added.json()["data"]["name"] == name
    return authenticator


async def _passkey_sign_in(
    client: httpx2.AsyncClient, authenticator: SoftAuthenticator, **how: Any
) -> httpx2.Response:
    client.cookies.clear()
    options = await _options(client, "/v1/auth/passkeys/sign-in-options", {})
    assert options["allowCredentials"] == [] and options["userVerification"] == "required"
    credential = authenticator.get(options, **how)
    return await client.post("/v1/auth/passkeys/sign-in", json={"credential": credential})


async def _audit_actions(client: httpx2.AsyncClient, admin_headers: dict[str, str]) -> list[str]:
    answer = await client.get("/v1/admin/audit-events?limit=100", headers=admin_headers)
    assert answer.status_code == 200, answer.text
    return [row["action"] for row in answer.json()["data"]]


async def test_add_sign_in_without_password_replay_and_removal(
    client: httpx2.AsyncClient, settings: Settings, admin: Any
) -> None:
    csrf = await sign_up_verified(client, settings, "pia@example.com", "Pia")
    authenticator = await _add_passkey(client, csrf)
    listed = await client.get("/v1/auth/passkeys")
    assert [p["name"] for p in listed.json()["data"]] == ["Laptop"]

    # Signed out, the passkey alone signs in (no email, no password).
    signed_in = await _passkey_sign_in(client, authenticator)
    assert signed_in.status_code == 200, signed_in.text
    assert signed_in.json()["data"]["user"]["email"] == "pia@example.com"
    assert signed_in.json()["data"]["session"]["method"] == "passkey"
    me = await client.get("/v1/users/me")
    assert me.status_code == 200 and me.json()["data"]["email"] == "pia@example.com"

    # The same answer again (a replayed challenge) is refused: the challenge was spent.
    client.cookies.clear()
    options = await _options(client, "/v1/auth/passkeys/sign-in-options", {})
    first = authenticator.get(options)
    assert (
        await client.post("/v1/auth/passkeys/sign-in", json={"credential": first})
    ).status_code == 200
    client.cookies.clear()
    replayed = await client.post("/v1/auth/passkeys/sign-in", json={"credential": first})
    assert replayed.status_code == 400, replayed.text
    assert replayed.json()["details"][0]["field"] == "challenge"

    # Rename, then remove it: it signs in no more.
    csrf = await sign_in(client, "pia@example.com")
    passkey_id = (await client.get("/v1/auth/passkeys")).json()["data"][0]["id"]
    renamed = await client.patch(
        f"/v1/auth/passkeys/{passkey_id}", json={"name": "Phone"}, headers=csrf
    )
    assert renamed.status_code == 200 and renamed.json()["data"]["name"] == "Phone"
    removed = await client.delete(f"/v1/auth/passkeys/{passkey_id}", headers=csrf)
    assert removed.status_code == 200, removed.text
    refused = await _passkey_sign_in(client, authenticator)
    assert refused.status_code == 401, refused.text
    assert refused.json()["details"][0]["field"] == "credential"

    actions = await _audit_actions(client, admin.key_headers)
    assert actions.count("passkey.used") == 2
    assert "passkey.added" in actions and "passkey.removed" in actions


async def test_refusals_of_challenges_counters_and_other_peoples_passkeys(
    client: httpx2.AsyncClient, settings: Settings
) -> None:
    csrf = await sign_up_verified(client, settings, "quinn@example.com", "Quinn")
    quinn = await _add_passkey(client, csrf)

    # A challenge the server never issued.
    forged = await _passkey_sign_in(client, quinn, challenge=b64url(b"not-an-issued-challenge"))
    assert forged.status_code == 400 and forged.json()["details"][0]["field"] == "challenge"

    # A registration's challenge is not a sign-in's.
    csrf = await sign_in(client, "quinn@example.com")
    registration = await _options(client, "/v1/auth/passkeys/registration-options", csrf)
    client.cookies.clear()
    options = await _options(client, "/v1/auth/passkeys/sign-in-options", {})
    crossed = await client.post(
        "/v1/auth/passkeys/sign-in",
        json={"credential": quinn.get(options, challenge=registration["challenge"])},
    )
    assert crossed.status_code == 400 and crossed.json()["details"][0]["field"] == "challenge"

    # A counter that does not move forward (a copied authenticator) is refused...
    assert (await _passkey_sign_in(client, quinn)).status_code == 200  # the server has seen it
    stuck = await _passkey_sign_in(client, quinn, advance=0)
    assert stuck.status_code == 401, stuck.text
    assert "counter" in stuck.json()["message"]
    # ...and the authenticator moving on signs in again.
    assert (await _passkey_sign_in(client, quinn, advance=2)).status_code == 200

    # Another person cannot finish a registration with Quinn's challenge.
    csrf = await sign_up_verified(client, settings, "ravi@example.com", "Ravi")
    csrf_quinn = await sign_in(client, "quinn@example.com")
    stolen = await _options(client, "/v1/auth/passkeys/registration-options", csrf_quinn)
    csrf = await sign_in(client, "ravi@example.com")
    other = SoftAuthenticator(ORIGIN, RP_ID)
    taken = await client.post(
        "/v1/auth/passkeys", json={"name": "x", "credential": other.create(stolen)}, headers=csrf
    )
    assert taken.status_code == 400 and taken.json()["details"][0]["field"] == "challenge"

    # Another origin (a phishing site relaying the challenge) is refused.
    options = await _options(client, "/v1/auth/passkeys/registration-options", csrf)
    phished = SoftAuthenticator("http://evil.example", RP_ID)
    refused = await client.post(
        "/v1/auth/passkeys", json={"name": "x", "credential": phished.create(options)}, headers=csrf
    )
    assert refused.status_code == 400 and refused.json()["details"][0]["field"] == "credential"

    # Passkeys belong to people: Ravi's passkey cannot be removed by Quinn (404).
    ravi = await _add_passkey(client, csrf, "Ravi's")
    ravi_id = (await client.get("/v1/auth/passkeys")).json()["data"][0]["id"]
    csrf_quinn = await sign_in(client, "quinn@example.com")
    gone = await client.delete(f"/v1/auth/passkeys/{ravi_id}", headers=csrf_quinn)
    assert gone.status_code == 404
    assert (await _passkey_sign_in(client, ravi)).json()["data"]["user"]["email"] == (
        "ravi@example.com"
    )

    # A key (not a browser session) manages no passkeys.
    client.cookies.clear()
    key = await client.post("/v1/auth/passkeys/registration-options", headers={"x-api-key": "x"})
    assert key.status_code == 401


def _second_step(page: str) -> tuple[str, dict[str, Any]]:
    token = re.search(r'name="token" value="([^"]+)"', page)
    options = re.search(r"data-options='([^']+)'", page)
    assert token and options, page[:2000]
    return token.group(1), json.loads(html.unescape(options.group(1)))


async def _password_step(client: httpx2.AsyncClient, email: str) -> httpx2.Response:
    client.cookies.clear()
    return await client.post(
        "/sign-in", data={"email": email, "password": STRONG_PASSWORD, "next": "/history"}
    )


async def test_second_step_with_a_passkey_or_a_recovery_code(
    client: httpx2.AsyncClient, settings: Settings, admin: Any
) -> None:
    csrf = await sign_up_verified(client, settings, "sam@example.com", "Sam")
    # Not without a passkey.
    early = await client.put("/v1/auth/second-step", json={"enabled": True}, headers=csrf)
    assert early.status_code == 409
    sam = await _add_passkey(client, csrf)
    turned_on = await client.put("/v1/auth/second-step", json={"enabled": True}, headers=csrf)
    assert turned_on.status_code == 200, turned_on.text
    codes = turned_on.json()["data"]["recoveryCodes"]
    assert len(codes) == settings.passkeys.recovery_codes and len(set(codes)) == len(codes)
    # The last passkey stays while the second step is on.
    passkey_id = (await client.get("/v1/auth/passkeys")).json()["data"][0]["id"]
    kept = await client.delete(f"/v1/auth/passkeys/{passkey_id}", headers=csrf)
    assert kept.status_code == 409

    # The API's password sign-in is refused (403 naming secondStep); the web's asks for it.
    client.cookies.clear()
    api = await client.post(
        "/v1/auth/sign-in", json={"email": "sam@example.com", "password": STRONG_PASSWORD}
    )
    assert api.status_code == 403 and api.json()["details"][0]["field"] == "secondStep"
    page = await _password_step(client, "sam@example.com")
    assert page.status_code == 200 and "Confirm it is you" in page.text
    assert "agora_session" not in page.cookies  # no session before the second step
    pending, options = _second_step(page.text)
    assert [c["id"] for c in options["allowCredentials"]] == [b64url(sam.credential_id)]

    # Another person's passkey does not finish Sam's second step.
    csrf_tess = await sign_up_verified(client, settings, "tess@example.com", "Tess")
    tess = await _add_passkey(client, csrf_tess)
    client.cookies.clear()
    foreign = await client.post(
        "/v1/auth/passkeys/second-step", json={"credential": tess.get(options)}
    )
    assert foreign.status_code == 401, foreign.text
    # Sam's passkey does; the step's token is then spent.
    done = await client.post("/v1/auth/passkeys/second-step", json={"credential": sam.get(options)})
    assert done.status_code == 200, done.text
    assert done.json()["data"]["session"]["method"] == "password+passkey"
    again = await client.post(
        "/v1/auth/passkeys/second-step", json={"credential": sam.get(options)}
    )
    assert again.status_code == 400

    # A recovery code instead of the passkey: once each; a wrong one shows the page again.
    page = await _password_step(client, "sam@example.com")
    pending, _ = _second_step(page.text)
    wrong = await client.post(
        "/sign-in/recovery-code", data={"token": pending, "code": "AAAA-BBBB-CCCC-DDDD"}
    )
    assert wrong.status_code == 401 and "recovery code is wrong" in wrong.text
    used = await client.post(
        "/sign-in/recovery-code",
        data={"token": pending, "code": codes[0].lower(), "next": "/history"},
    )
    assert used.status_code == 303 and used.headers["location"] == "/history"
    assert (await client.get("/v1/users/me")).json()["data"]["email"] == "sam@example.com"
    page = await _password_step(client, "sam@example.com")
    pending, _ = _second_step(page.text)
    reused = await client.post("/sign-in/recovery-code", data={"token": pending, "code": codes[0]})
    assert reused.status_code == 401

    # The magic link is a first step too.
    actions = await _audit_actions(client, admin.key_headers)
    assert "recovery_code.used" in actions and "passkey.second_step" in actions
    assert "recovery_codes.created" in actions


async def test_the_magic_link_leads_to_the_second_step_too(
    client: httpx2.AsyncClient, settings: Settings
) -> None:
    csrf = await sign_up_verified(client, settings, "uma@example.com", "Uma")
    uma = await _add_passkey(client, csrf)
    turned_on = await client.put("/v1/auth/second-step", json={"enabled": True}, headers=csrf)
    assert turned_on.status_code == 200
    client.cookies.clear()
    assert (
        await client.post("/v1/auth/magic-link", json={"email": "uma@example.com"})
    ).status_code == 202
    _, token = last_link(settings, "uma@example.com", "sign-in link")
    # The API's link sign-in is refused and spends nothing; the web page asks for the passkey.
    api = await client.post("/v1/auth/magic-link/sign-in", json={"token": token})
    assert api.status_code == 403 and api.json()["details"][0]["field"] == "secondStep"
    page = await client.post("/magic-link", data={"token": token})
    assert page.status_code == 200 and "Confirm it is you" in page.text
    assert "agora_session" not in page.cookies
    _, options = _second_step(page.text)
    done = await client.post("/v1/auth/passkeys/second-step", json={"credential": uma.get(options)})
    assert done.status_code == 200, done.text
    assert done.json()["data"]["session"]["method"] == "magic_link+passkey"


async def test_managing_passkeys_needs_a_recent_browser_sign_in(
    client: httpx2.AsyncClient, settings: Settings, db: Database, make_user: MakeUser
) -> None:
    # A key (not a browser session) manages no passkeys.
    someone = await make_user()
    for method, path in (
        ("POST", "/v1/auth/passkeys/registration-options"),
        ("PUT", "/v1/auth/second-step"),
        ("POST", "/v1/auth/recovery-codes"),
    ):
        answer = await client.request(
            method, path, headers=someone.key_headers, json={"enabled": True}
        )
        assert answer.status_code == 404, (path, answer.text)

    # A session whose sign-in is older than AGORA_KEY_REAUTH_MINUTES adds and removes nothing.
    csrf = await sign_up_verified(client, settings, "vera@example.com", "Vera")
    await _add_passkey(client, csrf)
    passkey_id = (await client.get("/v1/auth/passkeys")).json()["data"][0]["id"]
    long_ago = utcnow() - timedelta(minutes=settings.accounts.key_reauth_minutes + 1)
    async with db.transaction() as session:
        await session.execute(update(BrowserSession).values(created_at=long_ago))
    for method, path in (
        ("POST", "/v1/auth/passkeys/registration-options"),
        ("DELETE", f"/v1/auth/passkeys/{passkey_id}"),
        ("PUT", "/v1/auth/second-step"),
        ("POST", "/v1/auth/recovery-codes"),
    ):
        body = {"enabled": True} if method == "PUT" else None
        answer = await client.request(method, path, headers=csrf, json=body)
        assert answer.status_code == 403, (path, answer.text)
        assert answer.json()["details"][0]["field"] == "password"
    # The web page says why.
    page = await client.post(
        f"/settings/passkeys/{passkey_id}/remove", data={"csrf": csrf["X-CSRF-Token"]}
    )
    assert page.status_code == 403 and "needs a recent sign-in" in page.text
    assert len((await client.get("/v1/auth/passkeys")).json()["data"]) == 1


async def test_passwordless_options_are_counted_per_address(
    client: httpx2.AsyncClient, settings: Settings
) -> None:
    """Anyone may ask for sign-in options and each is a row: past the address's budget, 429."""
    budget = int(settings.accounts.auth_attempts_per_address.split("/")[0])
    answers = [
        (await client.post("/v1/auth/passkeys/sign-in-options")).status_code
        for _ in range(budget + 1)
    ]
    assert answers[:budget] == [200] * budget
    assert answers[budget] == 429


async def test_a_password_reset_cancels_a_waiting_second_step(
    client: httpx2.AsyncClient, settings: Settings
) -> None:
    csrf = await sign_up_verified(client, settings, "wren@example.com", "Wren")
    wren = await _add_passkey(client, csrf)
    codes = (await client.put("/v1/auth/second-step", json={"enabled": True}, headers=csrf)).json()[
        "data"
    ]["recoveryCodes"]
    page = await _password_step(client, "wren@example.com")
    pending, options = _second_step(page.text)
    assert (
        await client.post("/v1/auth/password-reset", json={"email": "wren@example.com"})
    ).status_code == 202
    _, token = last_link(settings, "wren@example.com", "Reset")
    reset = await client.post(
        "/v1/auth/password-reset/confirm",
        json={"token": token, "password": STRONG_PASSWORD + "-new"},
    )
    assert reset.status_code == 200, reset.text
    late = await client.post(
        "/v1/auth/passkeys/second-step", json={"credential": wren.get(options)}
    )
    assert late.status_code == 400 and late.json()["details"][0]["field"] == "challenge"
    code = await client.post("/sign-in/recovery-code", data={"token": pending, "code": codes[0]})
    assert code.status_code == 400
