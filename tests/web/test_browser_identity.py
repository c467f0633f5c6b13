"""Sign in with an identity provider in a real headless Chromium: ``agora serve`` and
oidc-provider-mock 0.3.4 (tests/support/identity.py), both real HTTP servers on loopback. What
only a browser shows: the sign-in button reaches the provider and back under the pages' CSP,
the flow cookie (SameSite=Lax, Path=/sign-in/) comes back on the provider's redirect, and
linking from Settings works through its "Continue" page. Marked ``process`` (``make prove``).
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.identity import oidc_provider, set_oidc_user
from tests.support.server import agora_env, free_port, running_agora_serve
from tests.web.test_browser import TIMEOUT_MS, _shot, _sign_up_and_in

pytestmark = pytest.mark.process


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path, str]]:
    data = tmp_path_factory.mktemp("web-idp")
    port = free_port()
    with oidc_provider() as issuer:
        env = agora_env(
            data,
            AGORA_DEMO="false",
            AGORA_PUBLIC_URL=f"http://127.0.0.1:{port}",
            AGORA_OUTBOUND_ALLOW="127.0.0.0/8",
            AGORA_IDP_OIDC_ISSUER=issuer,
            AGORA_IDP_OIDC_CLIENT_ID="agora-browser",
            AGORA_IDP_OIDC_CLIENT_SECRET="agora-browser-secret",
            AGORA_IDP_OIDC_NAME="Acme SSO",
        )
        with running_agora_serve(env, data / "banner.txt", port=port) as base:
            yield base, data, issuer


def _at_provider(page: object, sub: str) -> None:
    page.wait_for_selector("text=Authorize Client")  # type: ignore[attr-defined]
    page.fill("input[name=sub]", sub)  # type: ignore[attr-defined]
    page.click("button:has-text('Authorize')")  # type: ignore[attr-defined]


def test_sign_up_with_the_provider_then_link_it_to_a_password_account(
    served: tuple[str, Path, str], browser: object
) -> None:
    base, data, issuer = served
    context = browser.new_context()  # type: ignore[attr-defined]
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    try:
        sub = f"b-{uuid.uuid4().hex[:10]}"
        set_oidc_user(
            issuer, sub, email=f"{sub}@people.example", email_verified=True, name="Grace Hopper"
        )
        page.goto(f"{base}/sign-in")
        page.click("#sign-in-oidc")
        _at_provider(page, sub)
        page.wait_for_url(re.compile(r".*/agents.*"))
        page.goto(f"{base}/settings/sign-in")
        page.wait_for_selector(f"text={sub}@people.example")
        assert "You have no password" in page.content()

        # A password account links the provider from Settings.
        context.clear_cookies()
        email = _sign_up_and_in(page, base, data, "Linus")
        work = f"w-{uuid.uuid4().hex[:10]}"
        set_oidc_user(issuer, work, email=f"work-{email}", email_verified=True, name="Linus")
        page.goto(f"{base}/keys")
        page.click("#sign-in-methods-link")
        page.click("#link-oidc")
        page.click("#continue-to-provider")
        _at_provider(page, work)
        page.wait_for_selector("#linked-notice")
        assert f"work-{email}" in page.content()

        # Signed out, the provider signs in to that same account.
        page.click("#account-menu summary")
        page.click("button:has-text('Sign out')")
        page.goto(f"{base}/sign-in")
        page.click("#sign-in-oidc")
        _at_provider(page, work)
        page.wait_for_url(re.compile(r".*/agents.*"))
        page.goto(f"{base}/settings/sign-in")
        assert "You have a password" in page.content()
        _shot(page, "identity-provider-linked")
    finally:
        context.close()
