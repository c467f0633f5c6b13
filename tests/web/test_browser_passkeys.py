"""Passkeys in a real headless Chromium with its virtual authenticator (the DevTools WebAuthn
domain through a Playwright CDP session: a CTAP2 platform authenticator with resident keys and
user verification), against ``agora serve`` on ``localhost`` (WebAuthn needs a domain RP id and
a secure context: ``http://localhost`` is one). Add a passkey in the settings, sign out, sign
in with it and no password; turn the second step on, sign in with the password then the
passkey, then the password and a recovery code; remove the passkey: it signs in no more.
Marked ``process`` (``make prove``)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.server import agora_env, free_port, running_agora_serve
from tests.web.test_browser import PASSWORD, _shot, _sign_up_and_in
from tests.web.test_browser_layout import _axe_serious
from tests.web.test_browser_round2 import Page

pytestmark = pytest.mark.process


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    data = tmp_path_factory.mktemp("web-passkeys")
    port = free_port()
    base = f"http://localhost:{port}"
    env = agora_env(data, AGORA_DEMO="false", AGORA_PUBLIC_URL=base)
    with running_agora_serve(env, data / "banner.txt", port=port):
        yield base, data


def _virtual_authenticator(context: object, page: object) -> tuple[object, str]:
    cdp = context.new_cdp_session(page)  # type: ignore[attr-defined]
    cdp.send("WebAuthn.enable", {"enableUI": False})
    added = cdp.send(
        "WebAuthn.addVirtualAuthenticator",
        {
            "options": {
                "protocol": "ctap2",
                "transport": "internal",
                "hasResidentKey": True,
                "hasUserVerification": True,
                "isUserVerified": True,
                "automaticPresenceSimulation": True,
            }
        },
    )
    return cdp, added["authenticatorId"]


def _sign_out(page: object) -> None:
    page.click("#account-menu summary")  # type: ignore[attr-defined]
    page.click("header form[action='/sign-out'] button")  # type: ignore[attr-defined]
    page.wait_for_url(re.compile(r".*/sign-in$"))  # type: ignore[attr-defined]


def _password_step(page: object, base: str, email: str) -> None:
    page.goto(f"{base}/sign-in")  # type: ignore[attr-defined]
    page.fill("#email", email)  # type: ignore[attr-defined]
    page.fill("#password", PASSWORD)  # type: ignore[attr-defined]
    page.click("form[action='/sign-in'] button[type=submit]")  # type: ignore[attr-defined]
    page.wait_for_selector("text=Confirm it is you")  # type: ignore[attr-defined]


def test_add_sign_in_second_step_recovery_and_removal(
    server: tuple[str, Path], browser: object
) -> None:
    base, data = server
    p = Page(browser)  # console errors (a CSP refusal among them) and refused requests
    page = p.page
    cdp, authenticator = _virtual_authenticator(p.context, page)
    try:
        email = _sign_up_and_in(page, base, data, "Noor")
        # Add a passkey in the settings.
        page.goto(f"{base}/keys")
        page.click("#passkeys-link")
        page.fill("#passkey-name", "Virtual laptop")
        page.click("#passkey-add-button")
        page.wait_for_selector("#passkeys tbody tr")
        assert page.locator("#passkeys input[name=name]").input_value() == "Virtual laptop"
        assert _axe_serious(page) == []
        stored = cdp.send("WebAuthn.getCredentials", {"authenticatorId": authenticator})
        assert len(stored["credentials"]) == 1 and stored["credentials"][0]["isResidentCredential"]

        # Sign out, then sign in with the passkey and no password.
        _sign_out(page)
        assert _axe_serious(page) == []  # the sign-in page with its passkey button
        page.click("#passkey-sign-in-button")
        page.wait_for_url(re.compile(r".*/agents$"))
        page.goto(f"{base}/settings/passkeys")
        assert page.locator("#passkeys tbody tr").count() == 1
        assert page.locator("#passkeys tbody tr td").nth(2).locator("time").count() == 1  # used

        # The second step: on, with recovery codes shown once.
        page.click("#second-step-on")
        page.wait_for_selector("#recovery-codes")
        codes = page.locator("#recovery-codes code").all_inner_texts()
        assert len(codes) == 10
        page.reload()
        assert page.locator("#recovery-codes").count() == 0

        # Password, then the passkey.
        _sign_out(page)
        _password_step(page, base, email)
        assert _axe_serious(page) == []
        page.click("#passkey-second-step-button")
        page.wait_for_url(re.compile(r".*/agents$"))

        # Password, then a recovery code.
        _sign_out(page)
        _password_step(page, base, email)
        page.fill("#recovery-code", codes[0])
        page.click("#recovery-code-form button[type=submit]")
        page.wait_for_url(re.compile(r".*/agents$"))

        # Off again, then remove the passkey: it signs in no more.
        page.goto(f"{base}/settings/passkeys")
        page.click("#second-step-off")
        page.wait_for_selector("#second-step-on")
        page.click("#passkeys button.danger")
        page.wait_for_selector("text=No passkeys yet.")
        _sign_out(page)
        page.click("#passkey-sign-in-button")
        page.wait_for_selector("#passkey-error:not([hidden])")
        assert "does not sign in here" in page.locator("#passkey-error").inner_text()
        assert page.url.endswith("/sign-in")
        assert p.problems == []
        assert p.refused == ["401 v1/auth/passkeys/sign-in"]
    finally:
        _shot(page, "passkeys")
        p.close()
