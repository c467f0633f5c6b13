"""Stripe webhook signatures are bounded in time both ways (issue 43.8): a correctly signed
delivery dated more than the tolerance in the future, or in the past, is a 400 naming
``Stripe-Signature`` and grants nothing; the same event signed now grants once."""

from __future__ import annotations

import time

import httpx2

from tests.billing.conftest import Stripe, make_pack
from tests.billing.test_purchases import WEBHOOK, balance, bought
from tests.conftest import MakeUser, TestUser
from tests.support.stripe import sign

TOLERANCE = 300  # seconds: stripe.Webhook.DEFAULT_TOLERANCE, both directions here


async def test_a_future_dated_or_stale_signature_is_refused_and_grants_nothing(
    client: httpx2.AsyncClient, make_user: MakeUser, admin: TestUser, stripe_server: Stripe
) -> None:
    pack = await make_pack(client, admin, credits=100, price=1000)
    user = await make_user()
    _purchase, delivery = await bought(client, stripe_server, user, pack)
    json_type = {"Content-Type": "application/json"}
    now = int(time.time())
    for stamp in (now + 3600, now + TOLERANCE + 60, now - TOLERANCE - 60, now + 10**8):
        refused = await client.post(
            WEBHOOK,
            content=delivery.body,
            headers={**json_type, "Stripe-Signature": sign(delivery.body, timestamp=stamp)},
        )
        assert refused.status_code == 400, (stamp - now, refused.text)
        detail = refused.json()["details"][0]
        assert detail["field"] == "Stripe-Signature"
    assert (await balance(client, user))["balance"] == 0
    # Within the tolerance (a clock a little ahead, or behind) it is Stripe's event: granted.
    ahead = await client.post(
        WEBHOOK,
        content=delivery.body,
        headers={**json_type, "Stripe-Signature": sign(delivery.body, timestamp=now + 60)},
    )
    assert ahead.status_code == 200, ahead.text
    assert ahead.json()["outcome"] == "granted"
    assert (await balance(client, user))["balance"] == 100
