"""Issue 44.3 and 44.4: prices in every currency Stripe charges, end to end against localstripe
behind Stripe's rules (tests/support/stripe_rules.py). Amounts are integers in the currency's
minor units as Stripe counts them (https://docs.stripe.com/currencies): a JPY pack of 1000 is
¥1000 — shown so on every door and charged so — a KWD pack of 1500 is 1.500 KWD; a price Stripe
would refuse (below its minimum charge, a three-decimal amount not ending in 0, a currency whose
minimum Agora cannot know) is refused when the pack is created, with the rule in the message."""

from __future__ import annotations

from typing import Any

import httpx2

from agora.settings import Settings
from tests.accounts.helpers import sign_up_verified
from tests.billing.conftest import Stripe, make_pack, payment_method
from tests.billing.test_purchases import balance, deliver, pay, start_purchase
from tests.conftest import MakeUser, TestUser

PACKS = [  # (currency, price in minor units, as people read it)
    ("eur", 1000, "10.00 EUR"),
    ("usd", 500, "5.00 USD"),
    ("jpy", 1000, "1000 JPY"),
    ("kwd", 1500, "1.500 KWD"),
]


async def test_packs_in_eur_usd_jpy_kwd_are_shown_and_charged_right(
    client: httpx2.AsyncClient,
    settings: Settings,
    make_user: MakeUser,
    admin: TestUser,
    stripe_server: Stripe,
) -> None:
    made = {c: await make_pack(client, admin, credits=10, price=p, currency=c) for c, p, _ in PACKS}
    buyer = await make_user()
    listed = (await client.get("/v1/credits/packs", headers=buyer.key_headers)).json()["data"]
    assert {(p["currency"], p["price"], p["displayPrice"]) for p in listed} == set(PACKS)

    for currency, price, shown in PACKS:
        purchase = await start_purchase(client, buyer, made[currency])
        assert (purchase["price"], purchase["displayPrice"]) == (price, shown)
        intent_id = purchase["stripePaymentIntentId"]
        intent = stripe_server.server.get(f"/v1/payment_intents/{intent_id}")
        assert (intent["amount"], intent["currency"]) == (price, currency)  # charged as shown
        paid = await pay(client, buyer, purchase, payment_method(stripe_server.server))
        assert paid.status_code == 200, paid.text
        assert paid.json()["data"]["status"] == "pending"
        delivery = stripe_server.inbox.wait_for("payment_intent.succeeded", intent_id)
        assert (await deliver(client, delivery)).json()["outcome"] == "granted"
    assert (await balance(client, buyer))["balance"] == 40

    # The web pages show the same words: the Buy credits page, the credits list, the receipt.
    await sign_up_verified(client, settings, "yen@example.com")
    page = (await client.get("/credits/buy")).text
    for _, _, shown in PACKS:
        assert f"10 credits for {shown}</label>" in page
    assert "10.00 JPY" not in page and "15.00 KWD" not in page


async def test_prices_stripe_cannot_charge_are_refused_at_creation(
    client: httpx2.AsyncClient, make_user: MakeUser, admin: TestUser
) -> None:
    async def create(price: int, currency: str) -> httpx2.Response:
        body = {"name": "Pack", "credits": 1, "price": price, "currency": currency}
        return await client.post("/v1/admin/credit-packs", json=body, headers=admin.key_headers)

    def refusal(answer: httpx2.Response) -> tuple[str, str]:
        assert answer.status_code == 400, answer.text
        detail: dict[str, Any] = answer.json()["details"][0]
        return detail["field"], detail["reason"]

    # Below Stripe's minimum charge (its table: EUR 0.50, USD 0.50, GBP 0.30, JPY 50).
    field, message = refusal(await create(1, "eur"))
    assert field == "price"
    assert "0.50 EUR" in message and "least Stripe charges" in message
    assert "0.50 USD" in refusal(await create(49, "usd"))[1]
    assert "0.30 GBP" in refusal(await create(29, "gbp"))[1]
    assert "50 JPY" in refusal(await create(49, "JPY"))[1]
    # KWD: Agora's floor (Stripe converts at the day's rate), and three decimals end in 0.
    assert "0.200 KWD" in refusal(await create(190, "kwd"))[1]
    field, message = refusal(await create(1505, "kwd"))
    assert field == "price" and "must end in 0" in message and "0.010 KWD" in message
    # A currency whose minimum Agora cannot know is refused, naming those it sells.
    field, message = refusal(await create(100_000, "isk"))
    assert field == "currency" and "isk is not sold" in message and "jpy" in message

    for price, currency in ((50, "eur"), (30, "gbp"), (50, "jpy"), (200, "kwd"), (1510, "kwd")):
        answer = await create(price, currency)
        assert answer.status_code == 201, (price, currency, answer.text)
    packs = (await client.get("/v1/admin/credit-packs", headers=admin.key_headers)).json()
    assert sorted((p["currency"], p["price"]) for p in packs["data"]) == [
        ("eur", 50),
        ("gbp", 30),
        ("jpy", 50),
        ("kwd", 200),
        ("kwd", 1510),
    ]
    user = await make_user()
    assert all(
        p["displayPrice"] in {"0.50 EUR", "0.30 GBP", "50 JPY", "0.200 KWD", "1.510 KWD"}
        for p in (await client.get("/v1/credits/packs", headers=user.key_headers)).json()["data"]
    )
