"""An identity provider's discovery document and signing keys are kept per process
(accounts/providers.py, ``METADATA_SECONDS``): a second sign-in asks the provider only for the
code exchange; when the provider rotates its keys, the next sign-in fetches them again at once
and succeeds. Through the web app's routes, against an issuer on loopback that counts what it
is asked (tests/support/identity.py, ``RotatingIssuer``)."""

from __future__ import annotations

from collections.abc import Iterator
from urllib.parse import urlsplit

import httpx2
import pytest

from agora.settings import Settings
from tests.support.identity import RotatingIssuer
from tests.support.server import serve_in_thread


@pytest.fixture(scope="module")
def issuer() -> Iterator[tuple[RotatingIssuer, str]]:
    double = RotatingIssuer()
    with serve_in_thread(double.app(), "rotating-issuer") as base_url:
        yield double, base_url


@pytest.fixture
def settings(settings: Settings, issuer: tuple[RotatingIssuer, str]) -> Settings:
    double, base_url = issuer
    return settings.with_changes(
        idp_oidc_issuer=base_url,
        idp_oidc_client_id=double.client_id,
        idp_oidc_client_secret=double.client_secret,
        idp_oidc_name="Rotating SSO",
    )


async def _sign_in(client: httpx2.AsyncClient) -> None:
    client.cookies.clear()
    started = await client.get("/sign-in/oidc")
    assert started.status_code == 303, started.text
    async with httpx2.AsyncClient() as browser:  # the person at the provider
        at_provider = await browser.get(started.headers["location"])
    assert at_provider.status_code == 302, at_provider.text
    back = urlsplit(at_provider.headers["location"])
    done = await client.get(f"{back.path}?{back.query}")
    assert done.status_code == 303, done.text
    me = await client.get("/v1/auth/session")
    assert me.status_code == 200 and me.json()["data"]["user"]["email"] == "rotating@people.example"


async def test_metadata_and_keys_are_kept_and_fetched_again_when_the_keys_rotate(
    client: httpx2.AsyncClient, issuer: tuple[RotatingIssuer, str]
) -> None:
    double, _ = issuer
    double.hits.clear()
    await _sign_in(client)
    first = dict(double.hits)
    assert first["/token"] == 1 and first.get("/jwks", 0) <= 1  # kept already, or fetched once
    await _sign_in(client)
    paths = ("/authorize", "/token", "/.well-known/openid-configuration", "/jwks")
    second = {path: double.hits.get(path, 0) - first.get(path, 0) for path in paths}
    # Nothing fetched again: only the person's visit and the code exchange.
    assert second == {"/authorize": 1, "/token": 1, "/.well-known/openid-configuration": 0,
                      "/jwks": 0}  # fmt: skip
    # The provider rotates its signing key: the ID token names a key not kept; the keys are
    # fetched once more, and the sign-in succeeds.
    double.rotate()
    before = dict(double.hits)
    await _sign_in(client)
    assert double.hits.get("/jwks", 0) - before.get("/jwks", 0) == 1
    discovery = "/.well-known/openid-configuration"
    assert double.hits.get(discovery, 0) == before.get(discovery, 0)
