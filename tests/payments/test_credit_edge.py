"""50 paid jobs at once against a balance that affords exactly 20 of them, through the node."""

from __future__ import annotations

import asyncio
import time

import httpx2
from fastapi import FastAPI

from agora.kit.money import to_base
from tests.conftest import MakeUser
from tests.jobs.helpers import create, dispatcher, job
from tests.payments.helpers import HOUR_MS, Node, credits, register_seller
from tests.support.agents import LoopbackAgents

AFFORDABLE, ATTEMPTS = 20, 50


async def test_fifty_concurrent_paid_jobs_at_the_credit_edge(
    app: FastAPI,
    client: httpx2.AsyncClient,
    make_user: MakeUser,
    agents_server: LoopbackAgents,
    node: Node,
) -> None:
    user = await make_user(credits=to_base(2.1) * AFFORDABLE)
    agent_id = await register_seller(app, agents_server, node)
    answers = await asyncio.gather(
        *(
            create(client, user.key_headers, agent_id, {"inputData": {"text": f"job {i}"}})
            for i in range(ATTEMPTS)
        )
    )
    statuses = sorted(a.status_code for a in answers)
    assert statuses == [201] * AFFORDABLE + [402] * (ATTEMPTS - AFFORDABLE)
    ids = [a.json()["data"]["id"] for a in answers if a.status_code == 201]
    assert (await credits(client, user.key_headers))["balance"] == 0

    d = dispatcher(app)

    async def until(check: str, max_seconds: float = 120.0) -> list[dict[str, object]]:
        deadline = time.monotonic() + max_seconds
        while True:
            await d.run_once(limit=AFFORDABLE)
            jobs = [await job(client, user.key_headers, i) for i in ids]
            account = await credits(client, user.key_headers)
            assert account["balance"] >= 0
            if all(bool(j[check]) if check != "COMPLETED" else j["status"] == check for j in jobs):
                return jobs
            assert time.monotonic() < deadline, [(j["status"], j["error"]) for j in jobs]
            await asyncio.sleep(0.02)

    completed = await until("COMPLETED")
    assert all(j["verified"] is True for j in completed)
    await node.advance(31 * HOUR_MS)
    await until("jobStatusSettled")
    account = await credits(client, user.key_headers)
    assert (account["balance"], account["held"]) == (0, 0)
    response = await client.get("/v1/credits", headers=user.key_headers, params={"limit": 100})
    entries = response.json()["data"]["entries"]
    captures = [e["jobId"] for e in entries if e["kind"] == "capture"]
    assert sorted(captures) == sorted(ids)  # each charged exactly once
    assert not [e for e in entries if e["kind"] == "refund"]
