"""Paying sellers through Stripe Connect (issue 46 items 3-5; docs/billing.md, "Paying sellers"):
a developer connects an Express account (account link → the fake's onboarding →
``account.updated``), ``agora payouts run`` transfers the payable earnings once per period
(repeated runs and a refund after the payout included), a reversed transfer or a restricted
account gives the money back and tells the developer. Stripe is localstripe with the Connect
emulation (tests/support/stripe_connect.py) on loopback."""

from __future__ import annotations

import asyncio
import json
from datetime import datetime, timedelta
from typing import Any

import httpx2
import pytest
from fastapi import FastAPI
from typer.testing import CliRunner

from agora.accounts import provisioning as identity
from agora.accounts import repository as identity_repo
from agora.billing.worker import PayoutRun, run_payouts
from agora.cli.main import app as cli
from agora.developer import earnings as earnings_module
from agora.kit.db import Database
from agora.kit.errors import ServiceUnavailable
from agora.kit.timeutil import utcnow
from agora.settings import Settings, get_settings
from agora.workers import background_services
from tests.accounts.helpers import sign_up_verified
from tests.billing.conftest import Stripe
from tests.billing.test_purchases import deliver
from tests.billing.test_reconcile import reconcile
from tests.conftest import MakeUser, TestUser
from tests.developer.conftest import submission
from tests.jobs.helpers import dispatcher, echo
from tests.support.agents import LoopbackAgents
from tests.support.stripe import PUBLISHABLE_KEY, SECRET_KEY, WEBHOOK_SECRET

MINIMUM = 300  # minor units: a payout needs at least 3.00 EUR payable


async def payouts_run(
    settings: Settings, db: Database, at: datetime, *args: str
) -> tuple[int, dict[str, Any]]:
    """``agora payouts run --at <at> --json`` as the operator runs it."""
    env = {
        "AGORA_DATABASE_URL": db.url,
        "AGORA_DATA_DIR": str(settings.data_dir),
        "AGORA_SECRET_KEY": "test-secret-key",
        "AGORA_STRIPE_SECRET_KEY": SECRET_KEY,
        "AGORA_STRIPE_PUBLISHABLE_KEY": PUBLISHABLE_KEY,
        "AGORA_STRIPE_WEBHOOK_SECRET": WEBHOOK_SECRET,
        "AGORA_STRIPE_API_BASE": settings.stripe.api_base,
        "AGORA_PAYOUTS_MINIMUM": str(MINIMUM),
        "AGORA_LOG_LEVEL": "WARNING",
    }
    get_settings.cache_clear()
    result = await asyncio.to_thread(
        CliRunner().invoke,
        cli,
        ["payouts", "run", "--at", at.isoformat(), "--json", *args],
        env=env,
    )
    get_settings.cache_clear()
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result.exit_code, json.loads(result.stdout)


async def listed_agent(
    client: httpx2.AsyncClient, url: str, developer: TestUser, admin: TestUser
) -> str:
    created = await client.post(
        "/v1/developer/agents",
        json=submission(url, price=2, name="Paid echo"),
        headers=developer.bearer_headers,
    )
    assert created.status_code == 201, created.text
    agent_id: str = created.json()["data"]["id"]
    approved = await client.post(
        f"/v1/admin/agents/{agent_id}/approve", headers=admin.bearer_headers
    )
    assert approved.status_code == 200, approved.text
    return agent_id


async def hire(client: httpx2.AsyncClient, buyer: TestUser, agent_id: str, app: FastAPI) -> str:
    hired = await client.post(
        f"/v1/agents/{agent_id}/jobs", json={"inputData": {"text": "hi"}}, headers=buyer.key_headers
    )
    assert hired.status_code in (200, 201), hired.text
    await dispatcher(app).run_until_idle(10)
    job_id: str = hired.json()["data"]["id"]
    return job_id


async def earnings(client: httpx2.AsyncClient, developer: TestUser) -> dict[str, Any]:
    answer = await client.get("/v1/developer/earnings", headers=developer.bearer_headers)
    assert answer.status_code == 200, answer.text
    data: dict[str, Any] = answer.json()["data"]
    return data


async def connect(client: httpx2.AsyncClient, stripe: Stripe, developer: TestUser) -> str:
    """The REST door's onboarding link, Stripe's onboarding completed, its ``account.updated``
    handed to the app; the Stripe account id."""
    linked = await client.post(
        "/v1/developer/payout-account/onboarding-link", headers=developer.bearer_headers
    )
    assert linked.status_code == 200, linked.text
    url = linked.json()["data"]["url"]
    account = (await earnings(client, developer))["payoutAccount"]
    assert account["state"] == "onboarding" and "Onboarding not finished" in account["words"]
    done = httpx2.post(url, data={"result": "complete"}, follow_redirects=False, timeout=10)
    assert done.status_code == 302
    assert done.headers["location"].endswith("/developer/payouts/return")
    account_id: str = account["stripeAccountId"]
    applied = await deliver(client, stripe.inbox.wait_for("account.updated", account_id))
    assert applied.status_code == 200 and applied.json()["outcome"] == "updated", applied.text
    # A used link sends the person to the refresh URL (Stripe's single-use links).
    again = httpx2.get(url, follow_redirects=False, timeout=10)
    assert again.headers["location"].endswith("/developer/payouts/refresh")
    return account_id


async def test_payout_runs_pay_earnings_less_refunds_once_per_period(
    client: httpx2.AsyncClient,
    app: FastAPI,
    db: Database,
    settings: Settings,
    stripe_server: Stripe,
    agents_server: LoopbackAgents,
    make_user: MakeUser,
    admin: TestUser,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    httpx2.delete(f"{stripe_server.server.url}/_config/data", timeout=10).raise_for_status()
    clock = [utcnow()]  # what the earnings pages take for now (the holdback's fake clock)
    monkeypatch.setattr(earnings_module, "utcnow", lambda: clock[0])
    developer = await make_user()
    buyer = await make_user(credits=100_000_000)
    agent_id = await listed_agent(client, agents_server.serve(echo()), developer, admin)
    jobs = [await hire(client, buyer, agent_id, app) for _ in range(3)]  # 3 x 200 = 6.00 EUR

    # Not connected: the run pays nothing and says why.
    account = (await earnings(client, developer))["payoutAccount"]
    assert account["state"] == "not_connected" and "connect a Stripe account" in account["words"]
    later = utcnow() + timedelta(days=15)  # past the 14 days' holdback
    code, report = await payouts_run(settings, db, later)
    assert code == 0 and report["paid"] == []
    [blocked] = [b for b in report["blocked"] if b["amount"] == 600]
    assert blocked["reason"] == "no Stripe account connected"

    account_id = await connect(client, stripe_server, developer)
    account = (await earnings(client, developer))["payoutAccount"]
    assert (account["state"], account["payoutsEnabled"], account["requirementsDue"]) == (
        "ready",
        True,
        [],
    )

    # Within the holdback nothing is payable; past it, one transfer of exactly 600.
    code, report = await payouts_run(settings, db, utcnow())
    assert code == 0 and not [p for p in report["paid"] if p["amount"] == 600]
    code, report = await payouts_run(settings, db, later)
    assert code == 0, report
    [paid] = [p for p in report["paid"] if p["currency"] == "eur" and p["amount"] == 600]
    transfer = stripe_server.server.get(f"/v1/transfers/{paid['transfer']}")
    assert (transfer["amount"], transfer["currency"], transfer["destination"]) == (
        600,
        "eur",
        account_id,
    )
    # A second run of the period transfers nothing more.
    code, report = await payouts_run(settings, db, later + timedelta(hours=1))
    assert code == 0 and not [p for p in report["paid"] if p["account"] == paid["account"]]
    [balance] = (await earnings(client, developer))["balances"]
    assert (balance["pending"], balance["payable"], balance["paidOut"]) == (600, -600, 600)
    clock[0] = later
    [balance] = (await earnings(client, developer))["balances"]
    assert (balance["pending"], balance["payable"], balance["paidOut"]) == (0, 0, 600)
    delivered = await deliver(
        client, stripe_server.inbox.wait_for("transfer.created", transfer["id"])
    )
    assert delivered.json()["outcome"] == "already"

    # A refund after the payout: the balance goes below zero ...
    refunded = await client.post(
        f"/v1/admin/jobs/{jobs[0]}/refund", json={"reason": "ticket"}, headers=admin.bearer_headers
    )
    assert refunded.status_code == 200, refunded.text
    [balance] = (await earnings(client, developer))["balances"]
    assert balance["payable"] == -200 and balance["displayPayable"] == "-2.00 EUR"
    # ... and the next period recovers it from new earnings: 3 more jobs (600) less 200.
    for _ in range(3):
        await hire(client, buyer, agent_id, app)
    next_period = later + timedelta(days=31)
    clock[0] = next_period
    code, report = await payouts_run(settings, db, next_period)
    [second] = [p for p in report["paid"] if p["account"] == paid["account"]]
    assert second["amount"] == 400
    period = f"{next_period:%Y-%m}"
    statement = await client.get(
        f"/v1/developer/earnings/statements/{period}", headers=developer.bearer_headers
    )
    [made] = statement.json()["data"]["payouts"]
    assert (made["amount"], made["status"], made["stripeTransferId"]) == (
        400,
        "paid",
        second["transfer"],
    )
    csv_answer = await client.get(
        f"/v1/developer/earnings/statements/{period}/csv", headers=developer.bearer_headers
    )
    assert f"{second['transfer']} paid" in csv_answer.text and ",-400," in csv_answer.text

    # Stripe reverses the second transfer: the 400 is back in the balance; the developer is told.
    reversed_ = stripe_server.server.post(f"/v1/transfers/{second['transfer']}/reversals")
    assert reversed_.status_code == 200, reversed_.text
    applied = await deliver(
        client, stripe_server.inbox.wait_for("transfer.reversed", second["transfer"])
    )
    assert applied.json()["outcome"] == "reversed", applied.text
    data = await earnings(client, developer)
    assert data["balances"][0]["paidOut"] == 600
    assert [p["status"] for p in data["payouts"]] == ["reversed", "paid"]
    bell = await client.get("/v1/notifications?kind=payouts.failed", headers=developer.key_headers)
    assert bell.status_code == 200 and len(bell.json()["data"]["items"]) == 1, bell.text

    # `agora credits reconcile` checks Stripe's transfers against the payouts: all agree; a
    # reversal whose webhook never came is named.
    code, out = await reconcile(settings, db)
    assert (code, out["differences"]) == (0, []), out
    missed = stripe_server.server.post(f"/v1/transfers/{paid['transfer']}/reversals", amount="50")
    assert missed.status_code == 200, missed.text
    code, out = await reconcile(settings, db)
    assert code == 1
    assert [(d["kind"], d["stripe"], d["agora"]) for d in out["differences"]] == [
        ("transfer_reversed", 50, 0),
        ("payouts_total", 550, 600),
    ]
    applied = await deliver(
        client, stripe_server.inbox.wait_for("transfer.reversed", paid["transfer"])
    )
    assert applied.json()["outcome"] == "reversed"
    code, out = await reconcile(settings, db)
    assert (code, out["differences"]) == (0, []), out
    assert (await earnings(client, developer))["balances"][0]["paidOut"] == 550

    # Stripe restricts the account: nothing is paid to it, and the run says why.
    restricted = httpx2.post(
        f"{stripe_server.server.url}/_config/connect/accounts/{account_id}/restrict", timeout=10
    )
    assert restricted.status_code == 200
    updates = [
        d
        for d in stripe_server.inbox.deliveries
        if d.event["type"] == "account.updated"
        and d.event["data"]["object"]["id"] == account_id
        and not d.event["data"]["object"]["payouts_enabled"]
    ]
    for _ in range(100):  # bounded: localstripe delivers after 1 s
        if updates:
            break
        await asyncio.sleep(0.1)
        updates = [
            d
            for d in stripe_server.inbox.deliveries
            if d.event["type"] == "account.updated"
            and d.event["data"]["object"]["id"] == account_id
            and not d.event["data"]["object"]["payouts_enabled"]
        ]
    applied = await deliver(client, updates[0])
    assert applied.json()["outcome"] == "restricted", applied.text
    account = (await earnings(client, developer))["payoutAccount"]
    assert account["state"] == "restricted" and "Stripe needs more information" in account["words"]
    code, report = await payouts_run(settings, db, next_period + timedelta(days=1))
    [blocked] = [b for b in report["blocked"] if b["account"] == paid["account"]]
    assert blocked["amount"] == 450 and "external account" in blocked["reason"]
    told = await client.get(
        "/v1/notifications?kind=payouts.account_restricted", headers=developer.key_headers
    )
    assert len(told.json()["data"]["items"]) == 1, told.text


async def test_a_refused_or_unanswered_transfer_is_paid_by_a_later_run(
    client: httpx2.AsyncClient,
    app: FastAPI,
    db: Database,
    settings: Settings,
    stripe_server: Stripe,
    agents_server: LoopbackAgents,
    make_user: MakeUser,
    admin: TestUser,
) -> None:
    """Stripe refuses the transfer (the platform's balance is short): the payout is ``failed``,
    its amount payable again, the developer told, and the CLI exits 1; Stripe unreachable: the
    payout stays ``pending`` and the next run sends it with the same idempotency key; the
    monthly loop (``PayoutRun``) pays from its run day."""
    developer = await make_user()
    buyer = await make_user(credits=100_000_000)
    agent_id = await listed_agent(client, agents_server.serve(echo()), developer, admin)
    for _ in range(2):
        await hire(client, buyer, agent_id, app)
    await connect(client, stripe_server, developer)
    refreshed = await client.post(
        "/v1/developer/payout-account/refresh", headers=developer.bearer_headers
    )
    assert refreshed.status_code == 200 and refreshed.json()["data"]["state"] == "ready"
    fund = f"{stripe_server.server.url}/_config/connect/balance"
    httpx2.post(fund, data={"amount": "100", "currency": "eur"}, timeout=10).raise_for_status()

    later = utcnow() + timedelta(days=15)
    code, report = await payouts_run(settings, db, later)
    assert code == 1 and report["paid"] == []
    [failed] = report["failed"]
    assert failed["amount"] == 400 and failed["reason"].startswith("balance_insufficient")
    data = await earnings(client, developer)
    assert [(p["status"], p["attempt"]) for p in data["payouts"]] == [("failed", 1)]
    assert data["balances"][0]["paidOut"] == 0
    told = await client.get("/v1/notifications?kind=payouts.failed", headers=developer.key_headers)
    assert len(told.json()["data"]["items"]) == 1

    # Stripe unreachable (a closed port): the claimed payout waits, pending.
    httpx2.post(fund, data={"amount": "100000", "currency": "eur"}, timeout=10).raise_for_status()
    unreachable = settings.with_changes(stripe_api_base="http://127.0.0.1:9")
    code, report = await payouts_run(unreachable, db, later)
    assert code == 0 and report["unanswered"] == 1 and report["paid"] == []
    data = await earnings(client, developer)
    assert [(p["status"], p["attempt"]) for p in data["payouts"]] == [("pending", 2), ("failed", 1)]
    # The monthly loop, before its run day, does nothing; on it, sends the pending payout.
    loop = PayoutRun(db, settings.with_changes(payouts_minimum=MINIMUM, payouts_run_day=28),
                     clock=lambda: later.replace(day=27))  # fmt: skip
    assert await loop.round() is None
    assert (await earnings(client, developer))["payouts"][0]["status"] == "pending"
    loop = PayoutRun(db, settings.with_changes(payouts_minimum=MINIMUM, payouts_run_day=1),
                     clock=lambda: later)  # fmt: skip
    await loop.round()
    data = await earnings(client, developer)
    assert [(p["status"], p["attempt"]) for p in data["payouts"]] == [("paid", 2), ("failed", 1)]
    assert data["balances"][0]["paidOut"] == 400
    transfer = stripe_server.server.get(f"/v1/transfers/{data['payouts'][0]['stripeTransferId']}")
    assert transfer["amount"] == 400


def test_dispatching_processes_run_the_monthly_payouts_when_stripe_is_configured(
    app: FastAPI, settings: Settings
) -> None:
    def names(s: Settings) -> set[str]:
        services = background_services(
            app.state.db, app.state.agent_client, s, dispatching=True, serving=False
        )
        return {service.name for service in services}

    assert "payouts" in names(settings)
    assert "payouts" not in names(settings.with_changes(payouts_run_day=0))
    assert "payouts" not in names(settings.with_changes(stripe_secret_key=""))


async def test_a_run_without_stripe_claims_nothing(db: Database, settings: Settings) -> None:
    with pytest.raises(ServiceUnavailable, match="Stripe is not configured"):
        await run_payouts(db, settings.with_changes(stripe_secret_key=""))


async def test_the_earnings_page_connects_and_says_why_nothing_is_paid(
    client: httpx2.AsyncClient, settings: Settings, stripe_server: Stripe
) -> None:
    """The web door: the page's form goes to Stripe's onboarding (its CSP lets it land there);
    back from an expired link, the page says so."""
    await sign_up_verified(client, settings, "seller@example.com", "Sam Seller")
    page = await client.get("/developer/earnings")
    assert page.status_code == 200
    assert 'data-state="not_connected"' in page.text and "Nothing is paid out" not in page.text
    assert (
        f"form-action 'self' {stripe_server.server.url}" in page.headers["content-security-policy"]
    )
    csrf = page.text.split('name="csrf" value="', 1)[1].split('"', 1)[0]
    went = await client.post("/developer/payouts/connect", data={"csrf": csrf})
    assert went.status_code == 303
    assert went.headers["location"].startswith(f"{stripe_server.server.url}/_stripe/connect/")
    page = await client.get("/developer/earnings")
    assert 'data-state="onboarding"' in page.text and "Nothing is paid out" in page.text
    back = await client.get("/developer/payouts/refresh")
    assert back.status_code == 303
    page = await client.get(back.headers["location"])
    assert 'id="stripe-expired"' in page.text
    checked = await client.post("/developer/payouts/check", data={"csrf": csrf})
    assert checked.status_code == 303
    refused = await client.post("/developer/payouts/connect", data={})
    assert refused.status_code == 403


async def test_an_organizations_account_is_connected_by_its_owners_and_admins(
    client: httpx2.AsyncClient, make_user: MakeUser, stripe_server: Stripe, db: Database
) -> None:
    owner, member = await make_user(), await make_user()
    async with db.transaction() as session:
        users = [await identity_repo.user_by_id(session, u.user_id) for u in (owner, member)]
        org, _ = await identity.create_organization(
            session,
            slug="sellers",
            name="Sellers",
            owner=users[0],  # type: ignore[arg-type]
        )
        await identity.add_member(session, org=org, user=users[1], role="member")  # type: ignore[arg-type]
    slug = {"X-Organization-Slug": "sellers"}
    path = "/v1/developer/payout-account/onboarding-link"
    refused = await client.post(path, headers={**member.bearer_headers, **slug})
    assert refused.status_code == 403 and "owners and admins" in refused.text
    linked = await client.post(path, headers={**owner.bearer_headers, **slug})
    assert linked.status_code == 200, linked.text
    seen = await client.get("/v1/developer/earnings", headers={**member.bearer_headers, **slug})
    assert seen.json()["data"]["payoutAccount"]["state"] == "onboarding"  # members read it
    own = await client.get("/v1/developer/earnings", headers=member.bearer_headers)
    assert own.json()["data"]["payoutAccount"]["state"] == "not_connected"  # not theirs
