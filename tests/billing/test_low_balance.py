"""Low-balance warnings: a banner while the balance is below the threshold (by default the price
of the last job), and one mail to the payer per fall below it."""

from __future__ import annotations

import uuid

import httpx2
from fastapi import FastAPI

from agora.credits import ledger
from agora.kit.db import Database
from agora.kit.money import to_base
from agora.notifications.worker import NotificationSender
from agora.settings import Settings
from tests.accounts.helpers import mails_to, sign_up_verified
from tests.conftest import MakeUser
from tests.jobs.helpers import create, echo, register
from tests.support.agents import LoopbackAgents

SUBJECT = "Your Agora credits are running low"


async def warnings_to(app: FastAPI, email: str) -> int:
    """The ``credits.low_balance`` mails sent to ``email`` (the notification sender runs first)."""
    await NotificationSender(app.state.db, app.state.settings).run_once()
    return sum(1 for m in mails_to(app.state.settings, email) if m["Subject"] == SUBJECT)


async def test_one_mail_per_crossing_and_a_banner(
    app: FastAPI,
    client: httpx2.AsyncClient,
    settings: Settings,
    agents_server: LoopbackAgents,
    db: Database,
) -> None:
    agent_id = await register(app, agents_server, echo(), price=4)  # 4.2 a job
    email = "low@example.com"
    csrf = await sign_up_verified(client, settings, email)
    credits = (await client.get("/v1/credits")).json()["data"]
    async with db.transaction() as session:
        await ledger.grant(
            session, workspace_id=uuid.UUID(credits["workspaceId"]), amount=to_base(10), memo="t"
        )
    page = await client.get("/credits")
    assert 'id="low-balance"' not in page.text
    assert (await create(client, csrf, agent_id)).status_code == 201  # 5.8 left: above 4.2
    assert await warnings_to(app, email) == 0
    assert (await create(client, csrf, agent_id)).status_code == 201  # 1.6 left: below
    assert await warnings_to(app, email) == 1
    page = await client.get("/credits")
    assert 'id="low-balance"' in page.text
    assert "1.6 credits left" in page.text
    # Credits in end the fall; the next fall below mails again, once.
    async with db.transaction() as session:
        await ledger.grant(
            session, workspace_id=uuid.UUID(credits["workspaceId"]), amount=to_base(3), memo="t"
        )
    assert (await create(client, csrf, agent_id)).status_code == 201  # 4.6 → 0.4
    assert await warnings_to(app, email) == 2  # the grant ended the first fall; this is a new one
    assert (await create(client, csrf, agent_id)).status_code == 402
    assert await warnings_to(app, email) == 2


async def test_a_set_threshold(
    app: FastAPI,
    client: httpx2.AsyncClient,
    settings: Settings,
    make_user: MakeUser,
    agents_server: LoopbackAgents,
) -> None:
    agent_id = await register(app, agents_server, echo(), price=1)  # 1.05 a job
    user = await make_user(credits=to_base(10))
    bad = await client.put(
        "/v1/credits/low-balance", json={"threshold": -1}, headers=user.key_headers
    )
    assert bad.status_code == 400
    set_to = await client.put(
        "/v1/credits/low-balance", json={"threshold": 9}, headers=user.key_headers
    )
    assert set_to.status_code == 200, set_to.text
    assert set_to.json()["data"]["threshold"] == 9
    assert (await create(client, user.key_headers, agent_id)).status_code == 201  # 8.95 < 9
    assert await warnings_to(app, user.email) == 1
    assert (await create(client, user.key_headers, agent_id)).status_code == 201
    assert await warnings_to(app, user.email) == 1
