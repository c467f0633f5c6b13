"""Stripe sends events of connected accounts (``account.updated`` of a seller's account) to a
Connect webhook endpoint, signed with that endpoint's own secret: with
``AGORA_STRIPE_CONNECT_WEBHOOK_SECRET`` set, the webhook takes either secret and no other."""

from __future__ import annotations

import json

import httpx2
import pytest

from agora.settings import Settings
from tests.support.stripe import charge_event, sign

CONNECT_SECRET = "whsec_connect_endpoint_test"


@pytest.fixture
def settings(settings: Settings) -> Settings:
    return settings.with_changes(stripe_connect_webhook_secret=CONNECT_SECRET)


async def test_events_signed_with_the_connect_endpoints_secret_are_taken(
    client: httpx2.AsyncClient, stripe_server: object
) -> None:
    account = {"id": "acct_unknown1", "object": "account", "details_submitted": True,
               "payouts_enabled": True, "requirements": {"currently_due": []}}  # fmt: skip
    body = charge_event("account.updated", account, "evt_connect_1")
    headers = {"Content-Type": "application/json"}
    taken = await client.post(
        "/v1/billing/stripe/webhook",
        content=body,
        headers={**headers, "Stripe-Signature": sign(body, CONNECT_SECRET)},
    )
    assert taken.status_code == 200, taken.text
    assert taken.json()["outcome"] == "unknown"  # verified; no account of Agora's
    other = json.dumps({**json.loads(body), "id": "evt_connect_2"}).encode()
    refused = await client.post(
        "/v1/billing/stripe/webhook",
        content=other,
        headers={**headers, "Stripe-Signature": sign(other, "whsec_someone_else")},
    )
    assert refused.status_code == 400 and "Stripe-Signature" in refused.text
