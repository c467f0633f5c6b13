"""With the private-address policy on (``outbound_allow=""``), submissions aimed at loopback,
private, link-local or metadata addresses, at a hostname resolving to loopback, or redirecting to
loopback are refused with a 400 that says why, and no request reaches the target.

The guard is ``kit/outbound.py`` (the MIP-003 client is built by ``client_for(settings)``). These
tests must never send traffic to a non-loopback address, even if the guard regressed: before a
private or metadata address is submitted, the test checks that the app's agent client goes
through the guard and that the guard refuses that URL statically (URL/address check, before any
connection); the submission must then answer "refused by policy" quickly."""

from __future__ import annotations

import time
from collections.abc import Iterator

import httpx2
import pytest
from fastapi import FastAPI

from agora.kit.outbound import GuardedTransport, OutboundPolicy, OutboundRefused
from agora.settings import Settings
from tests.conftest import MakeUser
from tests.developer.conftest import submission
from tests.support.listener import Listener, counting_listener

REDIRECTOR_HOST = "127.0.0.2"  # exempted below, so only the redirect's target is refused


@pytest.fixture
def settings(settings: Settings, request: pytest.FixtureRequest) -> Settings:
    """The policy on; a test may exempt ranges with ``@pytest.mark.outbound_allow("…")``."""
    marker = request.node.get_closest_marker("outbound_allow")
    allow = marker.args[0] if marker else ""
    return settings.with_changes(outbound_allow=allow)


@pytest.fixture
def target() -> Iterator[Listener]:
    with counting_listener() as listener:
        yield listener


async def _refused(client: httpx2.AsyncClient, make_user: MakeUser, url: str) -> str:
    developer = await make_user()
    response = await client.post(
        "/v1/developer/agents", json=submission(url), headers=developer.bearer_headers
    )
    assert response.status_code == 400, response.text
    body = response.json()
    assert body["details"][0]["field"] == "baseUrl"
    message: str = body["message"]
    return message


@pytest.mark.parametrize(
    "host", ["127.0.0.1", "localhost"], ids=["loopback-address", "name-resolving-to-loopback"]
)
async def test_loopback_is_refused_and_never_reached(
    client: httpx2.AsyncClient, make_user: MakeUser, target: Listener, host: str
) -> None:
    message = await _refused(client, make_user, f"http://{host}:{target.port}/agent")
    assert "refused by policy" in message
    assert target.count == 0


@pytest.mark.parametrize(
    "url",
    ["http://10.1.2.3/agent", "http://169.254.169.254/latest", "http://[::1]:9/agent"],
    ids=["private-10", "metadata", "ipv6-loopback"],
)
async def test_private_and_metadata_addresses_are_refused(
    app: FastAPI, client: httpx2.AsyncClient, make_user: MakeUser, settings: Settings, url: str
) -> None:
    # Preconditions, checked before anything is submitted, so that a regressed guard fails the
    # test here instead of letting a request leave for a non-loopback address.
    assert settings.outbound_allow == ""
    with pytest.raises(OutboundRefused):
        OutboundPolicy.from_setting(settings.outbound_allow).check_url(url)
    transport = app.state.agent_client._client._transport
    assert isinstance(transport, GuardedTransport)
    assert transport.policy == OutboundPolicy.from_setting(settings.outbound_allow)

    started = time.monotonic()
    message = await _refused(client, make_user, url)
    assert "refused by policy" in message
    assert time.monotonic() - started < 5  # refused at check time, no connection attempt


@pytest.mark.outbound_allow(f"{REDIRECTOR_HOST}/32")
async def test_a_redirect_to_loopback_is_not_followed(
    client: httpx2.AsyncClient, make_user: MakeUser, target: Listener
) -> None:
    with counting_listener(REDIRECTOR_HOST, redirect_to=target.url) as redirector:
        await _refused(client, make_user, f"{redirector.url}/agent")
        assert redirector.count >= 1  # the exempt first hop was called …
    assert target.count == 0  # … and the redirect to loopback was not followed
