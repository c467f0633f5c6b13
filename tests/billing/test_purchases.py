"""Buying credits with Stripe, against localstripe on loopback (tests/support/stripe.py): packs,
purchases, the verified webhook that alone grants credits (once, whatever the replays and
concurrent deliveries), declined cards, refunds and disputes that claw back, the shortfall that
blocks paid jobs until settled."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx2
from fastapi import FastAPI
from sqlalchemy import func, select

from agora.accounts import provisioning as identity
from agora.accounts import repository as identity_repo
from agora.kit.db import Database
from agora.models import LedgerEntry, StripeEvent
from tests.billing.conftest import Stripe, make_pack, payment_method
from tests.conftest import MakeUser, TestUser
from tests.jobs.helpers import create, echo, register
from tests.support.agents import LoopbackAgents
from tests.support.stripe import Delivery, charge_event, sign

WEBHOOK = "/v1/billing/stripe/webhook"


async def deliver(client: httpx2.AsyncClient, delivery: Delivery) -> httpx2.Response:
    """Hand localstripe's delivery, byte for byte, to the app's webhook."""
    return await client.post(
        WEBHOOK,
        content=delivery.body,
        headers={"Stripe-Signature": delivery.signature, "Content-Type": "application/json"},
    )


async def balance(client: httpx2.AsyncClient, user: TestUser, **headers: str) -> dict[str, Any]:
    response = await client.get("/v1/credits?limit=100", headers={**user.key_headers, **headers})
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()["data"]
    return data


async def start_purchase(
    client: httpx2.AsyncClient, user: TestUser, pack: dict[str, Any], **headers: str
) -> dict[str, Any]:
    response = await client.post(
        "/v1/credits/purchases",
        json={"packId": pack["id"]},
        headers={**user.key_headers, **headers},
    )
    assert response.status_code == 201, response.text
    data: dict[str, Any] = response.json()["data"]
    return data


async def pay(
    client: httpx2.AsyncClient, user: TestUser, purchase: dict[str, Any], method: str
) -> httpx2.Response:
    return await client.post(
        f"/v1/credits/purchases/{purchase['id']}/pay",
        json={"paymentMethod": method},
        headers=user.key_headers,
    )


async def bought(
    client: httpx2.AsyncClient, stripe_server: Stripe, user: TestUser, pack: dict[str, Any]
) -> tuple[dict[str, Any], Delivery]:
    """A paid purchase and localstripe's ``payment_intent.succeeded`` delivery (not yet given
    to the app)."""
    purchase = await start_purchase(client, user, pack)
    paid = await pay(client, user, purchase, payment_method(stripe_server.server))
    assert paid.status_code == 200, paid.text
    delivery = stripe_server.inbox.wait_for(
        "payment_intent.succeeded", purchase["stripePaymentIntentId"]
    )
    return purchase, delivery


async def test_credits_arrive_from_the_verified_webhook_only_and_once(
    client: httpx2.AsyncClient, make_user: MakeUser, admin: TestUser, stripe_server: Stripe
) -> None:
    pack = await make_pack(client, admin, credits=100, price=1000)
    user = await make_user()
    packs = (await client.get("/v1/credits/packs", headers=user.key_headers)).json()["data"]
    assert [(p["id"], p["credits"], p["price"], p["currency"]) for p in packs] == [
        (pack["id"], 100.0, 1000, "eur")
    ]
    purchase = await start_purchase(client, user, pack)
    assert (purchase["status"], purchase["credits"], purchase["price"]) == ("pending", 100, 1000)
    assert purchase["clientSecret"].startswith(purchase["stripePaymentIntentId"] + "_secret_")
    assert purchase["payUrl"].endswith(f"/credits/buy/{purchase['id']}")
    intent = stripe_server.server.get(f"/v1/payment_intents/{purchase['stripePaymentIntentId']}")
    assert (intent["amount"], intent["currency"]) == (1000, "eur")
    assert intent["metadata"]["purchase_id"] == purchase["id"]

    paid = await pay(client, user, purchase, payment_method(stripe_server.server))
    assert paid.status_code == 200, paid.text
    assert paid.json()["data"]["nextAction"] is None
    assert paid.json()["data"]["credits"] == 100
    # Paid at Stripe, but nothing granted before the webhook.
    assert (await balance(client, user))["balance"] == 0
    delivery = stripe_server.inbox.wait_for(
        "payment_intent.succeeded", purchase["stripePaymentIntentId"]
    )

    # Forged: another secret, a changed body, no signature — 400 and nothing granted.
    json_type = {"Content-Type": "application/json"}
    forged = await client.post(
        WEBHOOK,
        content=delivery.body,
        headers={**json_type, "Stripe-Signature": sign(delivery.body, "whsec_x")},
    )
    assert forged.status_code == 400
    assert forged.json()["details"][0]["field"] == "Stripe-Signature"
    changed = delivery.body.replace(b'"amount": 1000', b'"amount": 100000')
    assert changed != delivery.body
    tampered = await client.post(
        WEBHOOK, content=changed, headers={**json_type, "Stripe-Signature": delivery.signature}
    )
    assert tampered.status_code == 400
    unsigned = await client.post(WEBHOOK, content=delivery.body, headers=json_type)
    assert unsigned.status_code == 400
    assert (await balance(client, user))["balance"] == 0

    granted = await deliver(client, delivery)
    assert granted.status_code == 200, granted.text
    assert granted.json()["outcome"] == "granted"
    account = await balance(client, user)
    assert account["balance"] == 100
    entry = account["entries"][0]
    assert entry["kind"] == "purchase"
    assert entry["amount"] == 100
    assert purchase["stripePaymentIntentId"] in entry["memo"]

    # A replay grants nothing.
    again = await deliver(client, delivery)
    assert again.json()["outcome"] == "duplicate"
    assert (await balance(client, user))["balance"] == 100

    listed = (await client.get("/v1/credits/purchases", headers=user.key_headers)).json()["data"]
    assert [(p["id"], p["status"]) for p in listed] == [(purchase["id"], "paid")]
    assert listed[0]["stripeChargeId"].startswith("ch_")
    assert listed[0]["paidAt"] is not None
    one = await client.get(f"/v1/credits/purchases/{purchase['id']}", headers=user.key_headers)
    assert one.json()["data"]["status"] == "paid"
    # Another workspace sees no such purchase.
    other = await make_user()
    hidden = await client.get(f"/v1/credits/purchases/{purchase['id']}", headers=other.key_headers)
    assert hidden.status_code == 404
    # Paying a paid purchase again is refused.
    twice = await pay(client, user, purchase, payment_method(stripe_server.server))
    assert twice.status_code == 409


async def test_declined_cards_grant_nothing(
    client: httpx2.AsyncClient, make_user: MakeUser, admin: TestUser, stripe_server: Stripe
) -> None:
    pack = await make_pack(client, admin)
    user = await make_user()
    purchase = await start_purchase(client, user, pack)
    # Declined when the card is saved (Stripe's test card 4000 0000 0000 0002).
    declined = await pay(
        client, user, purchase, payment_method(stripe_server.server, "4000000000000002")
    )
    assert declined.status_code == 200, declined.text  # the attempt is made and recorded
    assert declined.json()["data"]["status"] == "failed"
    assert declined.json()["data"]["failureMessage"] == "Your card was declined."
    shown = await client.get(f"/v1/credits/purchases/{purchase['id']}", headers=user.key_headers)
    assert shown.json()["data"]["status"] == "failed"
    assert shown.json()["data"]["failureMessage"] == "Your card was declined."
    # A declined purchase is final: paying it again is refused.
    again = await pay(client, user, purchase, payment_method(stripe_server.server))
    assert again.status_code == 409
    # Declined when charged (4000 0000 0000 0341): Stripe also sends payment_failed.
    second = await start_purchase(client, user, pack)
    card = payment_method(stripe_server.server, "4000000000000341")
    charged = await pay(client, user, second, card)
    assert charged.status_code == 200, charged.text
    assert charged.json()["data"]["failureMessage"] == "Your card was declined."
    failed = stripe_server.inbox.wait_for(
        "payment_intent.payment_failed", second["stripePaymentIntentId"]
    )
    assert (await deliver(client, failed)).json()["outcome"] == "failed"
    assert (await balance(client, user))["balance"] == 0
    # A new purchase with a good card.
    _, delivery = await bought(client, stripe_server, user, pack)
    assert (await deliver(client, delivery)).json()["outcome"] == "granted"
    assert (await balance(client, user))["balance"] == 100
    statuses = (await client.get("/v1/credits/purchases", headers=user.key_headers)).json()
    assert [p["status"] for p in statuses["data"]] == ["paid", "failed", "failed"]


async def test_twenty_concurrent_deliveries_grant_once(
    client: httpx2.AsyncClient,
    make_user: MakeUser,
    admin: TestUser,
    stripe_server: Stripe,
    db: Database,
) -> None:
    pack = await make_pack(client, admin, credits=25, price=500)
    user = await make_user()
    purchase, delivery = await bought(client, stripe_server, user, pack)
    answers = await asyncio.wait_for(
        asyncio.gather(*(deliver(client, delivery) for _ in range(20))), timeout=60
    )
    assert [a.status_code for a in answers] == [200] * 20
    outcomes = sorted(a.json()["outcome"] for a in answers)
    assert outcomes == ["duplicate"] * 19 + ["granted"]
    account = await balance(client, user)
    assert account["balance"] == 25
    assert [e["kind"] for e in account["entries"]] == ["purchase"]
    async with db.transaction(write=False) as session:
        events = await session.scalar(select(func.count()).select_from(StripeEvent))
        purchases = await session.scalar(
            select(func.count())
            .select_from(LedgerEntry)
            .where(LedgerEntry.kind == "purchase", LedgerEntry.workspace_id == user.workspace_id)
        )
    assert (events, purchases) == (1, 1)
    assert purchase["id"]


def refund_delivery(stripe_server: Stripe, charge_id: str, amount: int, event_id: str) -> Delivery:
    """Refund at localstripe, then the ``charge.refunded`` event Stripe sends — localstripe
    1.15.10 makes the refund but sends no event, so the test signs one around the charge
    localstripe returns (tests/support/stripe.py)."""
    made = stripe_server.server.post("/v1/refunds", charge=charge_id, amount=str(amount))
    assert made.status_code == 200, made.text
    charge = stripe_server.server.get(f"/v1/charges/{charge_id}")
    body = charge_event("charge.refunded", charge, event_id)
    return Delivery(body, sign(body))


async def test_refund_after_partial_spend_claws_back_the_rest_and_blocks_paid_jobs(
    app: FastAPI,
    client: httpx2.AsyncClient,
    make_user: MakeUser,
    admin: TestUser,
    stripe_server: Stripe,
    agents_server: LoopbackAgents,
) -> None:
    agent_id = await register(app, agents_server, echo(), price=60)
    pack = await make_pack(client, admin, credits=100, price=1000)
    user = await make_user()
    purchase, delivery = await bought(client, stripe_server, user, pack)
    assert (await deliver(client, delivery)).json()["outcome"] == "granted"
    job = await create(client, user.key_headers, agent_id)
    assert job.status_code == 201, job.text
    spent = 100 - (await balance(client, user))["balance"]
    assert spent == 63  # 60 + the 5 % marketplace fee, held for the job

    charge = (
        await client.get(f"/v1/credits/purchases/{purchase['id']}", headers=user.key_headers)
    ).json()["data"]["stripeChargeId"]
    refund = refund_delivery(stripe_server, charge, 1000, "evt_refund_full_1")
    answer = await deliver(client, refund)
    assert answer.json()["outcome"] == "clawed_back"
    account = await balance(client, user)
    assert (account["balance"], account["held"]) == (0, 63)
    clawback = account["entries"][0]
    assert (clawback["kind"], clawback["amount"]) == ("clawback", -37)
    assert "63 credits already spent" in clawback["memo"]
    shown = (
        await client.get(f"/v1/credits/purchases/{purchase['id']}", headers=user.key_headers)
    ).json()["data"]
    assert (shown["status"], shown["refunded"], shown["clawedBack"], shown["shortfall"]) == (
        "refunded",
        1000,
        37,
        63,
    )
    # Replays, and a second event saying the same, take nothing more.
    assert (await deliver(client, refund)).json()["outcome"] == "duplicate"
    charge_body = json.loads(refund.body)["data"]["object"]
    same = charge_event("charge.refunded", charge_body, "evt_refund_full_2")
    assert (await deliver(client, Delivery(same, sign(same)))).json()["outcome"] == "already"

    # Blocked from new paid jobs until the shortfall is settled.
    blocked = await create(client, user.key_headers, agent_id)
    assert blocked.status_code == 402
    assert "owes 63 credits" in blocked.json()["message"]

    # A new purchase pays the shortfall first; then paid jobs run again.
    _, second = await bought(client, stripe_server, user, pack)
    assert (await deliver(client, second)).json()["outcome"] == "granted"
    account = await balance(client, user)
    assert account["balance"] == 37
    assert [(e["kind"], e["amount"]) for e in account["entries"][:2]] == [
        ("settle", -63),
        ("purchase", 100),
    ]
    again = await create(client, user.key_headers, agent_id)
    assert again.status_code == 402  # 37 < 63: short of credits now, no longer blocked
    assert "owes" not in again.json()["message"]


async def test_partial_refunds_and_a_dispute_claw_back_in_proportion(
    client: httpx2.AsyncClient, make_user: MakeUser, admin: TestUser, stripe_server: Stripe
) -> None:
    pack = await make_pack(client, admin, credits=100, price=1000)
    user = await make_user()
    purchase, delivery = await bought(client, stripe_server, user, pack)
    await deliver(client, delivery)
    charge = (
        await client.get(f"/v1/credits/purchases/{purchase['id']}", headers=user.key_headers)
    ).json()["data"]["stripeChargeId"]
    first = refund_delivery(stripe_server, charge, 250, "evt_partial_1")
    assert (await deliver(client, first)).json()["outcome"] == "clawed_back"
    assert (await balance(client, user))["balance"] == 75
    shown = (
        await client.get(f"/v1/credits/purchases/{purchase['id']}", headers=user.key_headers)
    ).json()["data"]
    assert (shown["status"], shown["refunded"], shown["clawedBack"]) == (
        "partially_refunded",
        250,
        25,
    )
    # A dispute on the rest. localstripe 1.15.10 has no disputes: the event is Stripe's
    # ``charge.dispute.created`` with the Dispute object's documented fields.
    dispute = {
        "id": "dp_agora_test_1",
        "object": "dispute",
        "amount": 750,
        "currency": "eur",
        "charge": charge,
        "payment_intent": purchase["stripePaymentIntentId"],
        "reason": "fraudulent",
        "status": "needs_response",
        "livemode": False,
    }
    body = charge_event("charge.dispute.created", dispute, "evt_dispute_1")
    assert (await deliver(client, Delivery(body, sign(body)))).json()["outcome"] == "clawed_back"
    assert (await balance(client, user))["balance"] == 0
    shown = (
        await client.get(f"/v1/credits/purchases/{purchase['id']}", headers=user.key_headers)
    ).json()["data"]
    assert (shown["status"], shown["clawedBack"], shown["shortfall"]) == ("disputed", 100, 0)


async def test_organization_purchases_by_owners_and_admins_only(
    client: httpx2.AsyncClient,
    make_user: MakeUser,
    admin: TestUser,
    stripe_server: Stripe,
    db: Database,
) -> None:
    pack = await make_pack(client, admin)
    owner, helper, member = await make_user(), await make_user(), await make_user()
    async with db.transaction() as session:
        users = [
            await identity_repo.user_by_id(session, u.user_id) for u in (owner, helper, member)
        ]
        assert all(users)
        org, _ = await identity.create_organization(
            session,
            slug="buyers",
            name="Buyers",
            owner=users[0],  # type: ignore[arg-type]
        )
        await identity.add_member(session, org=org, user=users[1], role="admin")  # type: ignore[arg-type]
        await identity.add_member(session, org=org, user=users[2], role="member")  # type: ignore[arg-type]
    slug = {"X-Organization-Slug": "buyers"}
    refused = await client.post(
        "/v1/credits/purchases", json={"packId": pack["id"]}, headers={**member.key_headers, **slug}
    )
    assert refused.status_code == 403
    by_owner = await start_purchase(client, owner, pack, **slug)
    by_admin = await start_purchase(client, helper, pack, **slug)
    # One Stripe customer for the organization's workspace.
    assert by_owner["workspaceId"] == by_admin["workspaceId"] != str(owner.workspace_id)
    first = stripe_server.server.get(f"/v1/payment_intents/{by_owner['stripePaymentIntentId']}")
    second = stripe_server.server.get(f"/v1/payment_intents/{by_admin['stripePaymentIntentId']}")
    assert first["customer"] == second["customer"]
    # Members see the organization's purchases (reading is every member's).
    listed = await client.get("/v1/credits/purchases", headers={**member.key_headers, **slug})
    assert {p["id"] for p in listed.json()["data"]} == {by_owner["id"], by_admin["id"]}


async def test_packs_are_the_operators_and_bad_input_names_the_field(
    client: httpx2.AsyncClient, make_user: MakeUser, admin: TestUser
) -> None:
    user = await make_user()
    body = {"name": "Big", "credits": 10, "price": 100, "currency": "eur"}
    assert (
        await client.post("/v1/admin/credit-packs", json=body, headers=user.key_headers)
    ).status_code == 404
    bad = await client.post(
        "/v1/admin/credit-packs", json={**body, "currency": "e1r"}, headers=admin.key_headers
    )
    assert bad.status_code == 400
    assert bad.json()["details"][0]["field"] == "currency"
    pack = await make_pack(client, admin, credits="2.5", price=250)
    assert pack["credits"] == 2.5
    off = await client.patch(
        f"/v1/admin/credit-packs/{pack['id']}", json={"active": False}, headers=admin.key_headers
    )
    assert off.json()["data"]["active"] is False
    assert (await client.get("/v1/credits/packs", headers=user.key_headers)).json()["data"] == []
    archived = await client.post(
        "/v1/credits/purchases", json={"packId": pack["id"]}, headers=user.key_headers
    )
    assert archived.status_code == 400
    assert archived.json()["details"][0]["field"] == "packId"
    unknown = await client.post(
        "/v1/credits/purchases", json={"packId": "nope"}, headers=user.key_headers
    )
    assert unknown.status_code == 400
