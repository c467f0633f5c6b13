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
    webhook_url: str


@pytest.fixture(scope="session")
def stripe_server() -> Iterator[Stripe]:
    """localstripe on loopback (one per test session), its webhooks sent to an inbox."""
    with running_localstripe() as server, running_inbox() as (inbox, url):
        server.register_webhook(url)
        yield Stripe(server, inbox, url)


@pytest.fixture
def settings(settings: Settings, stripe_server: Stripe) -> Settings:
    # localstripe keeps its webhooks in module state shared by the whole process: register ours
    # again for every test (same name: it replaces itself), in case an earlier test reset them.
    stripe_server.server.register_webhook(stripe_server.webhook_url)
    return settings.with_changes(
        stripe_secret_key=SECRET_KEY,
        stripe_publishable_key=PUBLISHABLE_KEY,
        stripe_webhook_secret=WEBHOOK_SECRET,
        stripe_api_base=stripe_server.server.url,
    )


async def make_pack(
    client: httpx2.AsyncClient,
    admin: TestUser,
    credits: Any = 100,
    price: int = 1000,
    currency: str = "eur",
) -> dict[str, Any]:
    response = await client.post(
        "/v1/admin/credit-packs",
        headers=admin.key_headers,
        json={
            "name": f"{credits} credits",
            "credits": credits,
            "price": price,
            "currency": currency,
        },
    )
    assert response.status_code == 201, response.text
    data: dict[str, Any] = response.json()["data"]
    return data


def payment_method(server: LocalStripe, number: str = "4242424242424242") -> str:
    """What Stripe.js ``createPaymentMethod`` does in the page: ``POST /v1/payment_methods`` with
    the card and the publishable key (``tests/support/stripe_rules.py``)."""
    response = httpx2.post(
        f"{server.url}/v1/payment_methods",
        data={
            "type": "card",
            "card[number]": number,
            "card[exp_month]": "12",
            "card[exp_year]": "2030",
            "card[cvc]": "123",
            "key": PUBLISHABLE_KEY,
        },
        timeout=10,
    )
    response.raise_for_status()
    method: str = response.json()["id"]
    return method
