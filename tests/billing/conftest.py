from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import httpx2
import pytest

from agora.settings import Settings
from tests.conftest import TestUser
from tests.support.stripe import (
    PUBLISHABLE_KEY,
    SECRET_KEY,
    WEBHOOK_SECRET,
    LocalStripe,
    WebhookInbox,
    running_inbox,
    running_localstripe,
)


@dataclass
class Stripe:
    server: LocalStripe
    inbox: WebhookInbox


@pytest.fixture(scope="session")
def stripe_server() -> Iterator[Stripe]:
    """localstripe on loopback (one per test session), its webhooks sent to an inbox."""
    with running_localstripe() as server, running_inbox() as (inbox, url):
        server.register_webhook(url)
        yield Stripe(server, inbox)


@pytest.fixture
def settings(settings: Settings, stripe_server: Stripe) -> Settings:
    return settings.with_changes(
        stripe_secret_key=SECRET_KEY,
        stripe_publishable_key=PUBLISHABLE_KEY,
        stripe_webhook_secret=WEBHOOK_SECRET,
        stripe_api_base=stripe_server.server.url,
    )


async def make_pack(
    client: httpx2.AsyncClient, admin: TestUser, credits: Any = 100, price: int = 1000
) -> dict[str, Any]:
    response = await client.post(
        "/v1/admin/credit-packs",
        headers=admin.key_headers,
        json={"name": f"{credits} credits", "credits": credits, "price": price, "currency": "eur"},
    )
    assert response.status_code == 201, response.text
    data: dict[str, Any] = response.json()["data"]
    return data


def card_token(server: LocalStripe, number: str = "4242424242424242") -> str:
    """What Stripe.js ``createToken`` does in the page (localstripe's POST /v1/tokens with the
    publishable key)."""
    response = httpx2.post(
        f"{server.url}/v1/tokens",
        data={
            "card[number]": number,
            "card[exp_month]": "12",
            "card[exp_year]": "2030",
            "card[cvc]": "123",
            "key": PUBLISHABLE_KEY,
        },
        timeout=10,
    )
    response.raise_for_status()
    token: str = response.json()["id"]
    return token
