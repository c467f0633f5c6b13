"""Sellers' earnings (issue 46 items 1, 2, 5; docs/billing.md, "Paying sellers"): a captured
credit job credits the listing owner's earnings account with its price (the fee stays with the
operator), held back for the holdback; the operator's refund of the job reverses it; a month's
statement as API and CSV (formula-guarded)."""

from __future__ import annotations

import csv
import io
import uuid
from datetime import timedelta

import httpx2
import pytest
from fastapi import FastAPI
from sqlalchemy import delete, select

from agora.developer import earnings as earnings_module
from agora.kit.db import Database
from agora.kit.timeutil import utcnow
from agora.models import EarningsEntry, LedgerEntry
from agora.settings import Settings
from tests.billing.conftest import Stripe, stripe_server
from tests.billing.test_reconcile import reconcile
from tests.conftest import MakeUser, TestUser
from tests.developer.conftest import submission
from tests.jobs.helpers import dispatcher, echo
from tests.support.agents import LoopbackAgents
from tests.support.stripe import SECRET_KEY

__all__ = ["stripe_server"]  # the fixture: localstripe on loopback


async def _listed_agent(
    client: httpx2.AsyncClient, url: str, developer: TestUser, admin: TestUser, name: str
) -> str:
    created = await client.post(
        "/v1/developer/agents",
        json=submission(url, price=2, name=name),
        headers=developer.bearer_headers,
    )
    assert created.status_code == 201, created.text
    agent_id: str = created.json()["data"]["id"]
    approved = await client.post(
        f"/v1/admin/agents/{agent_id}/approve", headers=admin.bearer_headers
    )
    assert approved.status_code == 200, approved.text
    return agent_id


async def _hire(client: httpx2.AsyncClient, buyer: TestUser, agent_id: str) -> str:
    hired = await client.post(
        f"/v1/agents/{agent_id}/jobs", json={"inputData": {"text": "hi"}}, headers=buyer.key_headers
    )
    assert hired.status_code in (200, 201), hired.text
    job_id: str = hired.json()["data"]["id"]
    return job_id


async def _earnings(client: httpx2.AsyncClient, developer: TestUser) -> dict:  # type: ignore[type-arg]
    answer = await client.get("/v1/developer/earnings", headers=developer.bearer_headers)
    assert answer.status_code == 200, answer.text
    data: dict = answer.json()["data"]  # type: ignore[type-arg]
    return data


async def test_capture_earns_after_a_holdback_and_a_refund_reverses_it(
    client: httpx2.AsyncClient,
    app: FastAPI,
    agents_server: LoopbackAgents,
    make_user: MakeUser,
    admin: TestUser,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    developer = await make_user()
    buyer = await make_user(credits=100_000_000)  # 100 credits
    agent_id = await _listed_agent(
        client, agents_server.serve(echo()), developer, admin, '=HYPERLINK("x")'
    )
    first, second = await _hire(client, buyer, agent_id), await _hire(client, buyer, agent_id)
    await dispatcher(app).run_until_idle(10)

    # 2 jobs at 2 credits (the buyer paid 2.1: the 5 % fee stays with the operator), one credit
    # worth 100 minor units of EUR (the defaults): 400, held back for 14 days.
    data = await _earnings(client, developer)
    assert data["currency"] == "eur" and data["holdbackDays"] == 14
    assert data["payouts"] == []
    [balance] = data["balances"]
    assert (balance["pending"], balance["payable"], balance["total"]) == (400, 0, 400)
    assert balance["credits"] == 4 and balance["displayPending"] == "4.00 EUR"
    [agent] = data["agents"]
    assert agent["agentId"] == agent_id and agent["total"] == 400
    # The buyer sees nothing of it; the other workspace has no earnings.
    assert (await _earnings(client, buyer))["balances"] == []

    # Past the holdback (a clock 15 days on): payable.
    later = utcnow() + timedelta(days=15)
    monkeypatch.setattr(earnings_module, "utcnow", lambda: later)
    [balance] = (await _earnings(client, developer))["balances"]
    assert (balance["pending"], balance["payable"]) == (0, 400)
    monkeypatch.undo()

    # The operator refunds one job: the buyer gets its 2.1 credits back, the earning is reversed.
    before = (await client.get("/v1/credits", headers=buyer.key_headers)).json()["data"]
    refunded = await client.post(
        f"/v1/admin/jobs/{first}/refund", json={"reason": "ticket 12"}, headers=admin.bearer_headers
    )
    assert refunded.status_code == 200, refunded.text
    after = (await client.get("/v1/credits", headers=buyer.key_headers)).json()["data"]
    assert after["balance"] == pytest.approx(before["balance"] + 2.1)
    again = await client.post(
        f"/v1/admin/jobs/{first}/refund", json={"reason": "twice"}, headers=admin.bearer_headers
    )
    assert again.status_code == 409, again.text
    blank = await client.post(
        f"/v1/admin/jobs/{second}/refund", json={"reason": ""}, headers=admin.bearer_headers
    )
    assert blank.status_code == 400 and "reason" in blank.text

    [balance] = (await _earnings(client, developer))["balances"]
    assert (balance["pending"], balance["payable"], balance["total"]) == (200, 0, 200)
    monkeypatch.setattr(earnings_module, "utcnow", lambda: later)
    [balance] = (await _earnings(client, developer))["balances"]
    assert (balance["pending"], balance["payable"]) == (0, 200)
    monkeypatch.undo()

    async with app.state.db.transaction(write=False) as session:
        entries = list(await session.scalars(select(EarningsEntry)))
        refunds = list(
            await session.scalars(
                select(LedgerEntry).where(LedgerEntry.kind == "refund", LedgerEntry.amount > 0)
            )
        )
    assert sorted((e.kind, e.credits, e.amount, e.credit_value) for e in entries) == [
        ("earning", 2_000_000, 200, 100),
        ("earning", 2_000_000, 200, 100),
        ("reversal", -2_000_000, -200, 100),
    ]
    assert [str(r.job_id) for r in refunds] == [first]

    # This month's statement: 2 jobs, one refunded; fees 0.1 + 0.1 - 0.1.
    period = f"{utcnow():%Y-%m}"
    answer = await client.get(
        f"/v1/developer/earnings/statements/{period}", headers=developer.bearer_headers
    )
    assert answer.status_code == 200, answer.text
    [line] = answer.json()["data"]["lines"]
    assert (line["jobs"], line["refundedJobs"], line["earned"], line["refunded"]) == (
        2,
        1,
        400,
        -200,
    )
    assert (line["net"], line["payouts"], line["fees"]) == (200, None, pytest.approx(0.1))

    exported = await client.get(
        f"/v1/developer/earnings/statements/{period}/csv", headers=developer.bearer_headers
    )
    assert exported.status_code == 200 and exported.headers["content-type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(exported.text)))
    assert rows[0][:3] == ["date", "kind", "agent_id"]
    assert [r[1] for r in rows[1:]] == ["earning", "earning", "reversal"]
    assert {r[3] for r in rows[1:]} == {'\'=HYPERLINK("x")'}  # the formula guard
    assert [r[9] for r in rows[1:]] == ["200", "200", "-200"]  # numbers stay numbers
    assert all(r[11] == "" for r in rows[1:])  # payouts: not yet

    bad = await client.get(
        "/v1/developer/earnings/statements/2026-13", headers=developer.bearer_headers
    )
    assert bad.status_code == 400 and "period" in bad.text


async def test_reconcile_checks_the_earnings_accounts_against_the_captures(
    client: httpx2.AsyncClient,
    app: FastAPI,
    agents_server: LoopbackAgents,
    make_user: MakeUser,
    admin: TestUser,
    settings: Settings,
    db: Database,
    stripe_server: Stripe,
) -> None:
    httpx2.delete(f"{stripe_server.server.url}/_config/data", timeout=10).raise_for_status()
    stripe = settings.with_changes(
        stripe_secret_key=SECRET_KEY, stripe_api_base=stripe_server.server.url
    )
    developer = await make_user()
    buyer = await make_user(credits=100_000_000)
    agent_id = await _listed_agent(client, agents_server.serve(echo()), developer, admin, "Echo")
    jobs = [await _hire(client, buyer, agent_id) for _ in range(3)]
    await dispatcher(app).run_until_idle(10)
    refunded = await client.post(
        f"/v1/admin/jobs/{jobs[0]}/refund", json={"reason": "r"}, headers=admin.bearer_headers
    )
    assert refunded.status_code == 200, refunded.text

    code, out = await reconcile(stripe, db)
    assert (code, out["differences"]) == (0, [])

    # An earning lost (written outside the ledger's capture): the job and the total are named.
    async with db.transaction() as session:
        await session.execute(
            delete(EarningsEntry).where(EarningsEntry.job_id == uuid.UUID(jobs[1]))
        )
    code, out = await reconcile(stripe, db)
    assert code == 1
    assert [(d["kind"], d["subject"]) for d in out["differences"]] == [
        ("earnings", f"job {jobs[1]}"),
        ("earnings_total", "earnings accounts"),
    ]
    assert out["differences"][0]["agora"] == 0
