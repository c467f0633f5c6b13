"""Issue 44.8: the card path is Stripe's current one — a PaymentMethod from Stripe.js
(``createPaymentMethod``) confirms the purchase's PaymentIntent on the server
(``payment_method`` + ``return_url``); a card that needs 3-D Secure answers ``requires_action``
and the buyer is sent to the ``next_action`` redirect (Stripe's page), which returns them to the
receipt; the credits come from the webhook. Against localstripe behind Stripe's rules
(tests/support/stripe_rules.py), with Stripe's 3-D Secure test card 4000 0025 0000 3155."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import httpx2

from agora.settings import Settings
from tests.billing.conftest import Stripe, make_pack, payment_method
from tests.billing.test_purchases import balance, deliver, pay, start_purchase
from tests.conftest import MakeUser, TestUser

THREE_D_SECURE = "4000002500003155"


async def test_three_d_secure_redirects_and_the_webhook_completes_the_purchase(
    client: httpx2.AsyncClient,
    settings: Settings,
    make_user: MakeUser,
    admin: TestUser,
    stripe_server: Stripe,
) -> None:
    pack = await make_pack(client, admin, credits=30, price=700)
    user = await make_user()
    purchase = await start_purchase(client, user, pack)
    method = payment_method(stripe_server.server, THREE_D_SECURE)
    paid = await pay(client, user, purchase, method)
    assert paid.status_code == 200, paid.text
    data = paid.json()["data"]
    assert (data["status"], data["nextAction"]) == ("pending", "redirect_to_url")
    redirect = data["redirectUrl"]
    assert redirect.startswith(f"{stripe_server.server.url}/_stripe/3ds/")
    receipt = f"{settings.public_url.rstrip('/')}/credits/purchases/{purchase['id']}"
    intent = stripe_server.server.get(f"/v1/payment_intents/{purchase['stripePaymentIntentId']}")
    assert (intent["status"], intent["payment_method"]) == ("requires_action", method)
    assert intent["next_action"]["redirect_to_url"]["return_url"] == receipt
    assert (await balance(client, user))["balance"] == 0

    # The buyer completes the bank's check on Stripe's page and comes back to the receipt.
    page = httpx2.get(redirect, timeout=10)
    assert "Complete authentication" in page.text
    back = httpx2.post(redirect, data={"result": "complete"}, timeout=10)
    assert back.status_code == 302
    location = urlsplit(back.headers["location"])
    assert f"{location.scheme}://{location.netloc}{location.path}" == receipt
    query = parse_qs(location.query)
    assert query["redirect_status"] == ["succeeded"]
    assert query["payment_intent"] == [purchase["stripePaymentIntentId"]]
    delivery = stripe_server.inbox.wait_for(
        "payment_intent.succeeded", purchase["stripePaymentIntentId"]
    )
    assert (await deliver(client, delivery)).json()["outcome"] == "granted"
    assert (await balance(client, user))["balance"] == 30

    # Failing the check leaves the purchase unpaid and grants nothing.
    second = await start_purchase(client, user, pack)
    failing = await pay(client, user, second, payment_method(stripe_server.server, THREE_D_SECURE))
    refused = httpx2.post(
        failing.json()["data"]["redirectUrl"], data={"result": "fail"}, timeout=10
    )
    assert parse_qs(urlsplit(refused.headers["location"]).query)["redirect_status"] == ["failed"]
    after = stripe_server.server.get(f"/v1/payment_intents/{second['stripePaymentIntentId']}")
    assert after["status"] == "requires_payment_method"
    failed = stripe_server.inbox.wait_for(
        "payment_intent.payment_failed", second["stripePaymentIntentId"]
    )
    assert (await deliver(client, failed)).json()["outcome"] == "failed"
    shown = await client.get(f"/v1/credits/purchases/{second['id']}", headers=user.key_headers)
    assert shown.json()["data"]["status"] == "failed"
    assert (await balance(client, user))["balance"] == 30


async def test_the_tokens_path_is_gone_and_bad_payment_methods_name_the_field(
    client: httpx2.AsyncClient, make_user: MakeUser, admin: TestUser, stripe_server: Stripe
) -> None:
    pack = await make_pack(client, admin)
    user = await make_user()
    purchase = await start_purchase(client, user, pack)
    url = f"/v1/credits/purchases/{purchase['id']}/pay"
    token = await client.post(url, json={"cardToken": "tok_visa"}, headers=user.key_headers)
    assert token.status_code == 400
    unknown = await pay(client, user, purchase, "pm_unknown_to_stripe")
    assert unknown.status_code == 400, unknown.text
    assert unknown.json()["details"][0]["field"] == "paymentMethod"
    # Nothing was charged: the purchase is still open and pays with a good card.
    paid = await pay(client, user, purchase, payment_method(stripe_server.server))
    assert (paid.status_code, paid.json()["data"]["status"]) == (200, "pending")
    intent = stripe_server.server.get(f"/v1/payment_intents/{purchase['stripePaymentIntentId']}")
    assert intent["status"] == "succeeded" and intent["payment_method"].startswith("pm_")
