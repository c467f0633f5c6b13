"""Two payout runs started at once on PostgreSQL transfer once (issue 46, "Done when"): each
run claims an account's payout of the period in its own short transaction (the unique
(account, period, currency, attempt) lets one claim win) and calls Stripe with that attempt's
idempotency key. Checked on both sides: one paid payout per account in Agora, and the fake
Stripe's platform balance down by exactly the sum (tests/support/stripe_connect.py)."""

from __future__ import annotations

import asyncio
import json
import os
import sys
from datetime import timedelta
from typing import Any

import httpx2
import pytest
from fastapi import FastAPI
from sqlalchemy import select

from agora.billing.worker import run_payouts
from agora.kit.db import Database
from agora.kit.timeutil import utcnow
from agora.models import Payout
from agora.settings import Settings
from tests.billing.conftest import Stripe
from tests.billing.test_payouts import MINIMUM, connect, hire, listed_agent
from tests.conftest import MakeUser, TestUser
from tests.jobs.helpers import echo
from tests.support.agents import LoopbackAgents
from tests.support.stripe import PUBLISHABLE_KEY, SECRET_KEY, WEBHOOK_SECRET

DEVELOPERS = 3


def _fund(stripe: Stripe) -> int:
    """The platform's available EUR (test mode tops it up with the 0077 card; the fake's
    control sets it)."""
    funded = httpx2.post(
        f"{stripe.server.url}/_config/connect/balance",
        data={"amount": "1000000", "currency": "eur"},
        timeout=10,
    )
    assert funded.status_code == 200
    return _available(stripe)


def _available(stripe: Stripe) -> int:
    [eur] = [b for b in stripe.server.get("/v1/balance")["available"] if b["currency"] == "eur"]
    return int(eur["amount"])


async def _sellers(
    client: httpx2.AsyncClient,
    app: FastAPI,
    stripe: Stripe,
    agents_server: LoopbackAgents,
    make_user: MakeUser,
    admin: TestUser,
) -> None:
    """Three developers, each connected, each with two jobs earned (400 minor units)."""
    buyer = await make_user(credits=100_000_000)
    url = agents_server.serve(echo())
    for _ in range(DEVELOPERS):
        developer = await make_user()
        agent_id = await listed_agent(client, url, developer, admin)
        await connect(client, stripe, developer)
        for _ in range(2):
            await hire(client, buyer, agent_id, app)


async def _paid(db: Database) -> list[Payout]:
    async with db.transaction(write=False) as session:
        return list(await session.scalars(select(Payout)))


def _check(rows: list[Payout], spent: int) -> None:
    assert len(rows) == DEVELOPERS, [(r.account_key, r.status, r.attempt) for r in rows]
    assert {r.status for r in rows} == {"paid"} and {r.amount for r in rows} == {400}
    assert len({r.stripe_transfer_id for r in rows}) == DEVELOPERS
    assert spent == 400 * DEVELOPERS  # Stripe moved each once


@pytest.mark.postgres_only
async def test_two_runs_at_once_transfer_once(
    client: httpx2.AsyncClient,
    app: FastAPI,
    db: Database,
    settings: Settings,
    stripe_server: Stripe,
    agents_server: LoopbackAgents,
    make_user: MakeUser,
    admin: TestUser,
) -> None:
    """Two runs in one process, each with its own database engine (its own connections) and its
    Stripe calls in worker threads, gathered."""
    await _sellers(client, app, stripe_server, agents_server, make_user, admin)
    paying = settings.with_changes(payouts_minimum=MINIMUM)
    later = utcnow() + timedelta(days=15)
    other = Database(db.url, pool_size=5)
    before = _fund(stripe_server)
    try:
        first, second = await asyncio.wait_for(
            asyncio.gather(
                run_payouts(db, paying, now=later), run_payouts(other, paying, now=later)
            ),
            timeout=60,
        )
    finally:
        await other.dispose()
    assert len(first.paid) + len(second.paid) == DEVELOPERS, (first, second)
    _check(await _paid(db), before - _available(stripe_server))


@pytest.mark.postgres_only
@pytest.mark.process
async def test_two_cli_runs_started_at_once_transfer_once(
    client: httpx2.AsyncClient,
    app: FastAPI,
    db: Database,
    settings: Settings,
    stripe_server: Stripe,
    agents_server: LoopbackAgents,
    make_user: MakeUser,
    admin: TestUser,
) -> None:
    """``agora payouts run`` twice, as two processes started together."""
    await _sellers(client, app, stripe_server, agents_server, make_user, admin)
    env = {
        **os.environ,
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
    at = (utcnow() + timedelta(days=15)).isoformat()
    command = [sys.executable, "-m", "agora.cli.main", "payouts", "run", "--at", at, "--json"]
    before = _fund(stripe_server)
    runs = [
        await asyncio.create_subprocess_exec(
            *command, env=env, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE
        )
        for _ in range(2)
    ]
    outputs = await asyncio.wait_for(asyncio.gather(*(r.communicate() for r in runs)), 120)
    reports: list[dict[str, Any]] = []
    for run, (out, err) in zip(runs, outputs, strict=True):
        assert run.returncode == 0, err.decode()
        reports.append(json.loads(out))
    assert sum(len(r["paid"]) for r in reports) == DEVELOPERS, reports
    _check(await _paid(db), before - _available(stripe_server))
