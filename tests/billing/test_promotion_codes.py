"""Promotion codes for buyers (issue 46 item 6; docs/billing.md, "Promotion codes"), against
localstripe on loopback: the operator's codes, a code at checkout (bonus credits granted with the
purchase as their own ledger kind, or a percentage off the PaymentIntent), refusals naming
``promotionCode`` (unknown, switched off, expired, used up, used by this person), and 20
concurrent checkouts of a code limited to 10 taking it exactly 10 times."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import Any

import httpx2
import pytest
from fastapi import FastAPI
from sqlalchemy import func, select

from agora.billing import promotions
from agora.kit.timeutil import utcnow
from agora.models import LedgerEntry, PromotionCode, PromotionRedemption
from tests.billing.conftest import Stripe, make_pack, payment_method
from tests.billing.test_purchases import balance, deliver, pay
from tests.conftest import MakeUser, TestUser


async def make_code(client: httpx2.AsyncClient, admin: TestUser, **body: Any) -> dict[str, Any]:
    response = await client.post("/v1/admin/promotion-codes", json=body, headers=admin.key_headers)
    assert response.status_code == 201, response.text
    data: dict[str, Any] = response.json()["data"]
    return data


async def checkout(
    client: httpx2.AsyncClient, user: TestUser, pack: dict[str, Any], code: str
) -> httpx2.Response:
    return await client.post(
        "/v1/credits/purchases",
        json={"packId": pack["id"], "promotionCode": code},
        headers=user.key_headers,
    )


def refusal(response: httpx2.Response) -> str:
    assert response.status_code == 400, response.text
    [detail] = response.json()["details"]
    assert detail["field"] == "promotionCode"
    message: str = detail["reason"]
    return message


async def test_bonus_and_percent_codes_at_checkout_and_their_refusals(
    client: httpx2.AsyncClient,
    app: FastAPI,
    make_user: MakeUser,
    admin: TestUser,
    stripe_server: Stripe,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pack = await make_pack(client, admin, credits=100, price=1000)
    bonus = await make_code(client, admin, code="welcome-50", bonusCredits=50, maxUses=5)
    assert (bonus["code"], bonus["bonusCredits"], bonus["perPerson"], bonus["uses"]) == (
        "WELCOME-50", 50, 1, 0,
    )  # fmt: skip
    both = await client.post(
        "/v1/admin/promotion-codes",
        json={"code": "BOTH", "bonusCredits": 1, "percentOff": 10},
        headers=admin.key_headers,
    )
    assert both.status_code == 400 and both.json()["details"][0]["field"] == "bonusCredits"
    buyer = await make_user()

    started = await checkout(client, buyer, pack, "welcome-50")
    assert started.status_code == 201, started.text
    purchase = started.json()["data"]
    assert (purchase["credits"], purchase["bonusCredits"], purchase["price"]) == (100, 50, 1000)
    paid = await pay(client, buyer, purchase, payment_method(stripe_server.server))
    assert paid.status_code == 200, paid.text
    delivery = stripe_server.inbox.wait_for(
        "payment_intent.succeeded", purchase["stripePaymentIntentId"]
    )
    assert (await deliver(client, delivery)).status_code == 200
    assert (await balance(client, buyer))["balance"] == 150
    async with app.state.db.transaction(write=False) as session:
        kinds = sorted(
            (e.kind, e.amount)
            for e in await session.scalars(
                select(LedgerEntry).where(LedgerEntry.workspace_id == buyer.workspace_id)
            )
        )
    assert kinds == [("bonus", 50_000_000), ("purchase", 100_000_000)]

    # Once per person (the default), whatever the case of the code.
    again = refusal(await checkout(client, buyer, pack, "WELCOME-50"))
    assert "used this promotion code already" in again
    assert "no such promotion code" in refusal(await checkout(client, buyer, pack, "NOPE-1"))

    # 20 % off: the PaymentIntent is for 800.
    await make_code(client, admin, code="SPRING20", percentOff=20, perPerson=None)
    other = await make_user()
    cheaper = await checkout(client, other, pack, "spring20")
    assert cheaper.status_code == 201, cheaper.text
    data = cheaper.json()["data"]
    assert (data["price"], data["discount"], data["credits"]) == (800, 200, 100)
    intent = stripe_server.server.get(f"/v1/payment_intents/{data['stripePaymentIntentId']}")
    assert intent["amount"] == 800

    # 99 % off would take the price below Stripe's minimum charge: refused.
    await make_code(client, admin, code="ALMOSTFREE", percentOff=99)
    assert "below what can be charged" in refusal(await checkout(client, other, pack, "ALMOSTFREE"))

    # Switched off by the operator: refused.
    off = await client.patch(
        f"/v1/admin/promotion-codes/{bonus['id']}", json={"active": False},
        headers=admin.key_headers,
    )  # fmt: skip
    assert off.status_code == 200 and off.json()["data"]["active"] is False
    assert "no such promotion code" in refusal(await checkout(client, other, pack, "WELCOME-50"))

    # Expired (a clock a week on): refused.
    await make_code(
        client, admin, code="WEEKEND", bonusCredits=5,
        expiresAt=(utcnow() + timedelta(days=2)).isoformat(),
    )  # fmt: skip
    later = utcnow() + timedelta(days=7)
    monkeypatch.setattr(promotions, "utcnow", lambda: later)
    assert "expired" in refusal(await checkout(client, other, pack, "WEEKEND"))
    monkeypatch.undo()

    # Used up in total.
    await make_code(client, admin, code="ONLYONE", bonusCredits=5, maxUses=1)
    assert (await checkout(client, other, pack, "ONLYONE")).status_code == 201
    third = await make_user()
    assert "used up" in refusal(await checkout(client, third, pack, "ONLYONE"))

    listed = await client.get("/v1/admin/promotion-codes", headers=admin.key_headers)
    uses = {c["code"]: c["uses"] for c in listed.json()["data"]}
    assert uses == {"WELCOME-50": 1, "SPRING20": 1, "ALMOSTFREE": 0, "WEEKEND": 0, "ONLYONE": 1}


async def test_twenty_concurrent_checkouts_of_a_code_limited_to_ten_take_it_ten_times(
    client: httpx2.AsyncClient,
    app: FastAPI,
    make_user: MakeUser,
    admin: TestUser,
    stripe_server: Stripe,
) -> None:
    pack = await make_pack(client, admin, credits=10, price=500)
    code = await make_code(client, admin, code="TEN-ONLY", bonusCredits=1, maxUses=10)
    buyers = [await make_user() for _ in range(20)]

    answers = await asyncio.wait_for(
        asyncio.gather(*(checkout(client, b, pack, "TEN-ONLY") for b in buyers)), timeout=120
    )

    statuses = sorted(a.status_code for a in answers)
    assert statuses == [201] * 10 + [400] * 10, [a.text for a in answers if a.status_code >= 500]
    for answer in answers:
        if answer.status_code == 400:
            assert "TEN-ONLY" in refusal(answer)
    async with app.state.db.transaction(write=False) as session:
        row = await session.get(PromotionCode, __import__("uuid").UUID(code["id"]))
        redemptions = await session.scalar(select(func.count()).select_from(PromotionRedemption))
    assert row is not None and row.uses == 10
    assert redemptions == 10
