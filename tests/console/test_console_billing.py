"""The operator's console for paying sellers and promotion codes (issue 46): /admin/payouts
lists payouts and their states (the admin API ``GET /v1/admin/payouts`` too), /admin/promotions
lists and creates promotion codes with the same use case as the admin API."""

from __future__ import annotations

import uuid

import httpx2
from fastapi import FastAPI

from agora.accounts import provisioning as identity
from agora.accounts import repository as identity_repo
from agora.kit.db import Database
from agora.models import Payout
from agora.models.payout import account_key
from agora.settings import Settings
from tests.accounts.helpers import sign_up_verified
from tests.conftest import MakeUser, TestUser


async def _operator(app: FastAPI, client: httpx2.AsyncClient, settings: Settings) -> str:
    await sign_up_verified(client, settings, "op@example.com", "Olga Operator")
    async with app.state.db.transaction() as session:
        user = await identity_repo.user_by_email(session, "op@example.com")
        assert user is not None
        await identity.create_key(session, user=user, kind="admin")
    page = await client.get("/admin/promotions")
    assert page.status_code == 200, page.text
    return page.text.split('name="csrf" value="', 1)[1].split('"', 1)[0]


async def test_payouts_listed_with_their_states(
    app: FastAPI,
    client: httpx2.AsyncClient,
    settings: Settings,
    db: Database,
    admin: TestUser,
    make_user: MakeUser,
) -> None:
    seller = await make_user()
    key = account_key(seller.user_id, None)
    async with db.transaction() as session:  # two payouts a run made (billing/worker.py)
        for attempt, status, transfer, failure in [
            (1, "failed", None, "insufficient_capabilities_for_transfer: not enabled"),
            (2, "paid", "tr_console_1", None),
        ]:
            session.add(
                Payout(
                    id=uuid.uuid4(), account_key=key, owner_user_id=seller.user_id,
                    period="2026-11", currency="eur", attempt=attempt, amount=1234,
                    amount_reversed=0, status=status, stripe_account_id="acct_console",
                    stripe_transfer_id=transfer, failure=failure,
                )
            )  # fmt: skip
    await _operator(app, client, settings)
    page = await client.get("/admin/payouts")
    assert page.status_code == 200
    assert 'data-status="paid"' in page.text and "tr_console_1" in page.text
    assert "12.34 EUR" in page.text and "insufficient_capabilities_for_transfer" in page.text
    failed = await client.get("/admin/payouts", params={"status": "failed"})
    assert 'data-status="failed"' in failed.text and 'data-status="paid"' not in failed.text

    answer = await client.get(
        "/v1/admin/payouts", params={"status": "paid"}, headers=admin.key_headers
    )
    assert answer.status_code == 200, answer.text
    [paid] = answer.json()["data"]
    assert (paid["amount"], paid["stripeTransferId"], paid["attempt"]) == (1234, "tr_console_1", 2)
    refused = await client.get("/v1/admin/payouts", headers=seller.key_headers)
    assert refused.status_code in (403, 404)


async def test_promotion_codes_created_and_listed_in_the_console(
    app: FastAPI, client: httpx2.AsyncClient, settings: Settings, admin: TestUser
) -> None:
    csrf = await _operator(app, client, settings)
    assert "No promotion codes yet" in (await client.get("/admin/promotions")).text
    created = await client.post(
        "/admin/promotions",
        data={"csrf": csrf, "code": "launch-10", "percentOff": "10", "maxUses": "10",
              "perPerson": "1", "expiresOn": "2099-12-31"},
    )  # fmt: skip
    assert created.status_code == 303, created.text
    assert created.headers["location"] == "/admin/promotions?done=created"
    page = await client.get("/admin/promotions?done=created")
    assert "The promotion code is created." in page.text
    assert 'id="code-LAUNCH-10"' in page.text and "10 % off" in page.text
    assert "0 of 10" in page.text and "2100-01-01 00:00" in page.text

    both = await client.post(
        "/admin/promotions",
        data={"csrf": csrf, "code": "BOTH", "percentOff": "10", "bonusCredits": "5"},
    )
    assert both.status_code == 400 and "give either bonusCredits or percentOff" in both.text
    again = await client.post(
        "/admin/promotions", data={"csrf": csrf, "code": "LAUNCH-10", "bonusCredits": "5"}
    )
    assert again.status_code == 400 and "exists already" in again.text
    bad_day = await client.post(
        "/admin/promotions",
        data={"csrf": csrf, "code": "LATER", "bonusCredits": "5", "expiresOn": "soon"},
    )
    assert bad_day.status_code == 400 and "YYYY-MM-DD" in bad_day.text

    listed = await client.get("/v1/admin/promotion-codes", headers=admin.key_headers)
    assert [c["code"] for c in listed.json()["data"]] == ["LAUNCH-10"]
