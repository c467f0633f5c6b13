"""Issue 44, "faithful fakes": the test Stripe (localstripe behind tests/support/stripe_rules.py)
refuses what real Stripe refuses on the paths Agora uses, read through the official ``stripe``
SDK 16.1.0 the way Agora reads Stripe: amounts below the minimum charge (400
``amount_too_small``), three-decimal amounts not ending in 0 (400 ``invalid_request_error``),
and ``Idempotency-Key`` replays (the first answer again; other parameters: 400
``idempotency_error``). localstripe alone accepts all three."""

from __future__ import annotations

import uuid

import httpx2
import pytest
import stripe

from tests.billing.conftest import Stripe
from tests.support.stripe import SECRET_KEY


def sdk(stripe_server: Stripe) -> stripe.StripeClient:
    return stripe.StripeClient(SECRET_KEY, base_addresses={"api": stripe_server.server.url})


def test_amounts_stripe_cannot_charge_are_refused_as_stripe_does(stripe_server: Stripe) -> None:
    api = sdk(stripe_server).v1
    with pytest.raises(stripe.InvalidRequestError) as small:
        api.payment_intents.create(params={"amount": 1, "currency": "eur"})
    assert small.value.http_status == 400
    assert (small.value.code, small.value.param) == ("amount_too_small", "amount")
    assert small.value.error is not None and small.value.error.type == "invalid_request_error"
    assert small.value.user_message == "Amount must be at least €0.50 eur"
    with pytest.raises(stripe.InvalidRequestError) as yen:
        api.payment_intents.create(params={"amount": 49, "currency": "jpy"})
    assert yen.value.code == "amount_too_small" and "¥50 jpy" in str(yen.value.user_message)

    with pytest.raises(stripe.InvalidRequestError) as fils:
        api.payment_intents.create(params={"amount": 1505, "currency": "kwd"})
    assert fils.value.http_status == 400 and fils.value.param == "amount"
    assert fils.value.error is not None and fils.value.error.type == "invalid_request_error"
    assert "multiple of 10" in str(fils.value.user_message)

    assert api.payment_intents.create(params={"amount": 50, "currency": "eur"}).amount == 50
    assert api.payment_intents.create(params={"amount": 1500, "currency": "kwd"}).amount == 1500


def test_idempotency_keys_replay_the_first_answer_or_refuse_other_parameters(
    stripe_server: Stripe,
) -> None:
    api = sdk(stripe_server).v1
    key = f"agora-test-{uuid.uuid4()}"
    params = {"name": "Ada", "metadata": {"workspace_id": "w1"}}
    first = api.customers.create(params=params, options={"idempotency_key": key})
    again = api.customers.create(params=params, options={"idempotency_key": key})
    assert again.id == first.id  # the same customer, not a second one
    assert again.last_response is not None
    assert again.last_response.headers.get("Idempotent-Replayed") == "true"
    with pytest.raises(stripe.IdempotencyError) as other:
        api.customers.create(params={**params, "name": "Grace"}, options={"idempotency_key": key})
    assert other.value.http_status == 400
    assert other.value.error is not None and other.value.error.type == "idempotency_error"
    assert key in str(other.value.user_message)
    # Another key is another request; GET ignores the header.
    fresh = api.customers.create(params=params, options={"idempotency_key": f"{key}-2"})
    assert fresh.id != first.id
    listed = httpx2.get(
        f"{stripe_server.server.url}/v1/customers/{first.id}",
        headers={"Authorization": f"Bearer {SECRET_KEY}", "Idempotency-Key": key},
        timeout=10,
    )
    assert listed.status_code == 200 and listed.json()["id"] == first.id

    # A refusal for invalid parameters is not saved: the key serves a valid request after it.
    late = f"agora-test-{uuid.uuid4()}"
    with pytest.raises(stripe.InvalidRequestError):
        api.payment_intents.create(
            params={"amount": 1, "currency": "eur"}, options={"idempotency_key": late}
        )
    made = api.payment_intents.create(
        params={"amount": 100, "currency": "eur"}, options={"idempotency_key": late}
    )
    assert made.amount == 100
