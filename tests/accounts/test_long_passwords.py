"""Passwords up to the published maximum (128 characters) are accepted end to end — sign-up,
reset and sign-in, API and web forms — though zxcvbn rates at most 72 characters (a password of
73 or more was a 500); over the maximum is a 400 naming ``password``, never a 500."""

from __future__ import annotations

import httpx2
import pytest

from agora.kit.passwords import MAX_LENGTH
from agora.settings import Settings
from tests.accounts.helpers import last_link

WORDS = "violet-harbour-71-kettle-copper-meadow-lantern-58-quartz-ember-swallow-93-"


def long_password(length: int) -> str:
    return (WORDS * 3)[:length]


def _field(response: httpx2.Response) -> str:
    return str(response.json()["details"][0]["field"])


@pytest.mark.parametrize("length", [73, 100, MAX_LENGTH])
async def test_long_passwords_sign_up_reset_and_sign_in_over_the_api(
    client: httpx2.AsyncClient, settings: Settings, length: int
) -> None:
    email = f"long{length}@example.com"
    password = long_password(length)
    signed_up = await client.post(
        "/v1/auth/sign-up", json={"email": email, "password": password, "name": "Long"}
    )
    assert signed_up.status_code == 201, signed_up.text
    _, token = last_link(settings, email, "Confirm")
    assert (await client.post("/v1/auth/verify-email", json={"token": token})).status_code == 200
    signed_in = await client.post("/v1/auth/sign-in", json={"email": email, "password": password})
    assert signed_in.status_code == 200, signed_in.text
    # A reset to another long password; the new one signs in, the old one no longer does.
    await client.post("/v1/auth/password-reset", json={"email": email})
    _, reset_token = last_link(settings, email, "Reset")
    renewed = password[::-1]
    reset = await client.post(
        "/v1/auth/password-reset/confirm", json={"token": reset_token, "password": renewed}
    )
    assert reset.status_code == 200, reset.text
    client.cookies.clear()
    again = await client.post("/v1/auth/sign-in", json={"email": email, "password": renewed})
    assert again.status_code == 200, again.text
    old = await client.post("/v1/auth/sign-in", json={"email": email, "password": password})
    assert old.status_code == 401


async def test_weak_or_too_long_passwords_are_400_naming_the_field(
    client: httpx2.AsyncClient,
) -> None:
    for password in ("a" * 100, "password" * 12, long_password(MAX_LENGTH + 1), "x" * 1000):
        refused = await client.post(
            "/v1/auth/sign-up", json={"email": "w@example.com", "password": password, "name": "W"}
        )
        assert refused.status_code == 400, (len(password), refused.text)
        assert _field(refused) == "password"
    over = await client.post(
        "/v1/auth/sign-up",
        json={"email": "w@example.com", "password": long_password(129), "name": "W"},
    )
    assert f"at most {MAX_LENGTH}" in over.json()["details"][0]["reason"]


async def test_long_passwords_through_the_web_forms(
    client: httpx2.AsyncClient, settings: Settings
) -> None:
    email = "webl@example.com"
    password = long_password(MAX_LENGTH)
    done = await client.post(
        "/sign-up", data={"csrf": "", "name": "Ada", "email": email, "password": password}
    )
    assert done.status_code == 200 and "Check your mail" in done.text, done.text
    _, token = last_link(settings, email, "Confirm")
    verified = await client.post("/verify-email", data={"csrf": "", "token": token})
    assert verified.status_code == 303
    signed = await client.post("/sign-in", data={"csrf": "", "email": email, "password": password})
    assert signed.status_code == 303, signed.text
    client.cookies.clear()
    await client.post("/v1/auth/password-reset", json={"email": email})
    _, reset_token = last_link(settings, email, "Reset")
    reset = await client.post(
        "/reset-password",
        data={"csrf": "", "token": reset_token, "password": long_password(90)},
    )
    assert reset.status_code == 303, reset.text
    weak = "a" * 100
    await client.post("/v1/auth/password-reset", json={"email": email})
    _, second = last_link(settings, email, "Reset")
    refused = await client.post(
        "/reset-password", data={"csrf": "", "token": second, "password": weak}
    )
    assert refused.status_code == 400 and 'role="alert"' in refused.text
