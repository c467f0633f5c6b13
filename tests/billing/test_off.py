"""Without Stripe keys buying is off: the API answers 503, the page says so, loads no Stripe.js
and keeps the app's CSP; the webhook refuses everything."""

from __future__ import annotations

import httpx2
import pytest

from agora.settings import Settings
from agora.web.render import CSP
from tests.accounts.helpers import sign_up_verified
from tests.billing.conftest import make_pack
from tests.conftest import TestUser
from tests.support.stripe import sign


@pytest.fixture
def settings(settings: Settings) -> Settings:
    return settings.with_changes(stripe_secret_key="", stripe_webhook_secret="")


async def test_buying_is_off_without_keys(
    client: httpx2.AsyncClient, settings: Settings, admin: TestUser
) -> None:
    pack = await make_pack(client, admin)
    csrf = await sign_up_verified(client, settings, "nokeys@example.com")
    refused = await client.post("/v1/credits/purchases", json={"packId": pack["id"]}, headers=csrf)
    assert refused.status_code == 503
    assert "not configured" in refused.json()["message"]
    page = await client.get("/credits/buy")
    assert page.status_code == 200
    assert 'id="buy-off"' in page.text
    assert "js.stripe.com" not in page.text
    assert page.headers["content-security-policy"] == CSP
    body = b'{"id": "evt_1", "type": "payment_intent.succeeded", "data": {"object": {}}}'
    hook = await client.post(
        "/v1/billing/stripe/webhook",
        content=body,
        headers={"Content-Type": "application/json", "Stripe-Signature": sign(body)},
    )
    assert hook.status_code == 503
