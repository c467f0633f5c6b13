"""Jobs end to end against real MIP-003 agents: creation, dispatch, input, settlement."""

from __future__ import annotations

import json

import httpx2
import pytest
from fastapi import FastAPI
from sqlalchemy import select

from agora.dispatch.worker import Dispatcher
from agora.kit.db import Database
from agora.kit.money import to_base
from agora.kit.outbound import OutboundPolicy
from agora.mip003.client import Mip003Client
from agora.models import LedgerEntry, Workspace
from agora.payments.backend import payment_backend
from tests.conftest import MakeUser
from tests.jobs.helpers import create, dispatcher, echo, job, register, reviewer
from tests.support.agents import LoopbackAgents


async def _ledger(db: Database, workspace_id: object) -> list[tuple[str, int, int]]:
    async with db.transaction(write=False) as session:
        rows = await session.scalars(
            select(LedgerEntry)
            .where(LedgerEntry.workspace_id == workspace_id)
            .order_by(LedgerEntry.created_at, LedgerEntry.id)
        )
        return [(e.kind, e.amount, e.held_change) for e in rows]


async def _account(db: Database, workspace_id: object) -> tuple[int, int]:
    async with db.transaction(write=False) as session:
        ws = await session.get(Workspace, workspace_id)
        assert ws is not None
        return ws.balance, ws.held


async def test_free_job_completes_with_every_field_meaningful(
    app: FastAPI, client: httpx2.AsyncClient, make_user: MakeUser, agents_server: LoopbackAgents
) -> None:
    behaviour = echo()
    agent_id = await register(app, agents_server, behaviour)
    user = await make_user()
    created = await create(
        client, user.key_headers, agent_id, {"inputData": {"text": "hello", "mode": "upper"}}
    )
    assert created.status_code == 201, created.text
    body = created.json()
    assert body["success"] is True
    data = body["data"]
    assert data["status"] == "PENDING"
    assert data["agentId"] == agent_id
    assert data["userId"] == str(user.user_id)
    assert data["organizationId"] is None
    assert data["jobType"] == "FREE"
    assert data["onChainStatus"] is None
    assert json.loads(data["input"]) == {"text": "hello", "mode": "upper"}
    assert data["price"] == {"credits": 0, "includedFee": 0}
    assert data["jobStatusSettled"] is False
    assert data["name"].startswith("Echo")
    assert data["share"] is None

    await dispatcher(app).run_until_idle(5)
    assert len(behaviour.started) == 1
    done = await job(client, user.key_headers, data["id"])
    assert done["status"] == "COMPLETED"
    assert done["result"] == "HELLO"
    assert done["agentJobId"] == behaviour.started[0]
    assert done["agentJobStatus"] == "completed"
    assert done["startedAt"] and done["completedAt"]
    assert done["jobStatusSettled"] is True
    assert done["refund"] == {"credits": 0, "includedFee": 0}
    assert await _ledger(app.state.db, user.workspace_id) == []

    events = (await client.get(f"/v1/jobs/{data['id']}/events", headers=user.key_headers)).json()
    steps = [(e["type"], e["fromStatus"], e["toStatus"]) for e in events["data"]]
    assert steps == [
        ("created", None, "PENDING"),
        ("status_changed", "PENDING", "RUNNING"),
        ("status_changed", "RUNNING", "COMPLETED"),
    ]


async def test_paid_job_asks_for_input_then_completes_and_captures(
    app: FastAPI, client: httpx2.AsyncClient, make_user: MakeUser, agents_server: LoopbackAgents
) -> None:
    agent_id = await register(app, agents_server, reviewer(), price=2)
    user = await make_user(credits=to_base(10))
    created = await create(client, user.key_headers, agent_id, {"inputData": {"text": "a b c"}})
    assert created.status_code == 201, created.text
    data = created.json()["data"]
    # 2 credits + 5 % marketplace fee
    assert data["price"] == {"credits": 2.1, "includedFee": 0.1}
    assert data["jobType"] == "PAID"
    assert data["onChainStatus"] == "FUNDS_LOCKED"
    assert await _account(app.state.db, user.workspace_id) == (to_base("7.9"), to_base("2.1"))

    await dispatcher(app).run_until_idle(5)
    waiting = await job(client, user.key_headers, data["id"])
    assert waiting["status"] == "INPUT_REQUIRED"
    assert waiting["agentJobStatus"] == "awaiting_input"
    request = await client.get(f"/v1/jobs/{data['id']}/input-request", headers=user.key_headers)
    assert request.status_code == 200
    schema = request.json()["data"]["inputSchema"]
    assert [f["id"] for f in schema["input_data"]] == ["approve", "note"]

    bad = await client.post(
        f"/v1/jobs/{data['id']}/inputs",
        json={"inputData": {"approve": "yes"}},
        headers=user.key_headers,
    )
    assert bad.status_code == 400
    assert bad.json()["details"] == [
        {"field": "inputData.approve", "reason": "must be true or false (type boolean)"}
    ]
    answered = await client.post(
        f"/v1/jobs/{data['id']}/inputs",
        json={"inputData": {"approve": True, "note": "ship it"}},
        headers=user.key_headers,
    )
    assert answered.status_code == 200, answered.text
    assert answered.json()["data"]["status"] == "RUNNING"
    gone = await client.get(f"/v1/jobs/{data['id']}/input-request", headers=user.key_headers)
    assert gone.status_code == 404

    await dispatcher(app).run_until_idle(5)
    done = await job(client, user.key_headers, data["id"])
    assert done["status"] == "COMPLETED"
    assert done["result"].endswith("Note: ship it")
    assert done["onChainStatus"] == "FUNDS_WITHDRAWN"
    assert done["jobStatusSettled"] is True
    assert done["refund"] == {"credits": 0, "includedFee": 0}
    assert await _account(app.state.db, user.workspace_id) == (to_base("7.9"), 0)
    price = to_base("2.1")
    assert await _ledger(app.state.db, user.workspace_id) == [
        ("grant", to_base(10), 0),
        ("hold", -price, price),
        ("capture", 0, -price),
    ]
    credits = (await client.get("/v1/credits", headers=user.key_headers)).json()["data"]
    assert credits["balance"] == 7.9
    assert credits["held"] == 0
    assert [e["kind"] for e in credits["entries"]] == ["capture", "hold", "grant"]


@pytest.mark.parametrize("fault", ["status_500", "status_garbage", "vanish", "start_500"])
async def test_failing_agent_fails_the_job_with_a_refund(
    fault: str,
    app: FastAPI,
    client: httpx2.AsyncClient,
    make_user: MakeUser,
    agents_server: LoopbackAgents,
) -> None:
    behaviour = echo(fault=fault)
    agent_id = await register(app, agents_server, behaviour, price=1)
    user = await make_user(credits=to_base(5))
    data = (await create(client, user.key_headers, agent_id)).json()["data"]
    await dispatcher(app).run_until_idle(5)
    failed = await job(client, user.key_headers, data["id"])
    assert failed["status"] == "FAILED"
    assert failed["jobStatusSettled"] is True
    assert failed["refund"] == failed["price"] == {"credits": 1.05, "includedFee": 0.05}
    assert failed["onChainStatus"] == "REFUND_WITHDRAWN"
    assert "3 times in a row" in failed["error"]
    assert await _account(app.state.db, user.workspace_id) == (to_base(5), 0)
    kinds = [k for k, _, _ in await _ledger(app.state.db, user.workspace_id)]
    assert kinds == ["grant", "hold", "refund"]
    events = (await client.get(f"/v1/jobs/{data['id']}/events", headers=user.key_headers)).json()
    assert [e["type"] for e in events["data"]].count("agent_error") == 2


async def test_hanging_agent_times_out_and_fails(
    app: FastAPI, client: httpx2.AsyncClient, make_user: MakeUser, agents_server: LoopbackAgents
) -> None:
    behaviour = echo(fault="status_hang", hang_seconds=1.0)
    agent_id = await register(app, agents_server, behaviour)
    user = await make_user()
    data = (await create(client, user.key_headers, agent_id)).json()["data"]
    policy = OutboundPolicy.from_setting(app.state.settings.outbound_allow)
    async with Mip003Client(timeout=0.2, policy=policy) as impatient:
        settings = app.state.settings
        worker = Dispatcher(app.state.db, impatient, settings, payments=payment_backend(settings))
        await worker.run_until_idle(5)
    failed = await job(client, user.key_headers, data["id"])
    assert failed["status"] == "FAILED"
    assert "no answer in time" in failed["error"]


async def test_agent_reported_failure_refunds(
    app: FastAPI, client: httpx2.AsyncClient, make_user: MakeUser, agents_server: LoopbackAgents
) -> None:
    agent_id = await register(app, agents_server, reviewer(), price=1)
    user = await make_user(credits=to_base(5))
    data = (await create(client, user.key_headers, agent_id)).json()["data"]
    await dispatcher(app).run_until_idle(5)
    answered = await client.post(
        f"/v1/jobs/{data['id']}/inputs",
        json={"inputData": {"approve": False}},
        headers=user.key_headers,
    )
    assert answered.status_code == 200
    await dispatcher(app).run_until_idle(5)
    failed = await job(client, user.key_headers, data["id"])
    assert failed["status"] == "FAILED"
    assert failed["agentJobStatus"] == "failed"
    assert failed["result"] == "The draft review was rejected by the requester."
    assert await _account(app.state.db, user.workspace_id) == (to_base(5), 0)


async def test_cancel_refunds_and_is_final(
    app: FastAPI, client: httpx2.AsyncClient, make_user: MakeUser, agents_server: LoopbackAgents
) -> None:
    agent_id = await register(app, agents_server, reviewer(), price=1)
    user = await make_user(credits=to_base(5))
    data = (await create(client, user.key_headers, agent_id)).json()["data"]
    cancelled = await client.post(f"/v1/jobs/{data['id']}/cancel", headers=user.key_headers)
    assert cancelled.status_code == 200
    out = cancelled.json()["data"]
    assert out["status"] == "CANCELLED"
    assert out["jobStatusSettled"] is True
    assert out["refund"]["credits"] == 1.05
    assert await _account(app.state.db, user.workspace_id) == (to_base(5), 0)
    again = await client.post(f"/v1/jobs/{data['id']}/cancel", headers=user.key_headers)
    assert again.status_code == 409
    assert again.json() == {
        "error": "Conflict",
        "message": f"Job {data['id']} is already CANCELLED",
    }
    await dispatcher(app).run_until_idle(5)  # nothing left to dispatch
    assert (await job(client, user.key_headers, data["id"]))["status"] == "CANCELLED"


async def test_the_agent_rejects_an_answer_and_the_request_reopens(
    app: FastAPI, client: httpx2.AsyncClient, make_user: MakeUser, agents_server: LoopbackAgents
) -> None:
    """dispatch/worker.py provide_input: the agent answers 400 → the job is INPUT_REQUIRED again
    (nothing charged or refunded yet), the event says why, and a second answer completes it."""
    agent_id = await register(app, agents_server, reviewer(reject_answers=1), price=1)
    user = await make_user(credits=to_base(5))
    data = (await create(client, user.key_headers, agent_id)).json()["data"]
    await dispatcher(app).run_until_idle(5)
    assert (await job(client, user.key_headers, data["id"]))["status"] == "INPUT_REQUIRED"
    first = await client.post(
        f"/v1/jobs/{data['id']}/inputs",
        json={"inputData": {"approve": True, "note": "first"}},
        headers=user.key_headers,
    )
    assert first.status_code == 200, first.text
    assert first.json()["data"]["status"] == "RUNNING"

    await dispatcher(app).run_until_idle(5)
    reopened = await job(client, user.key_headers, data["id"])
    assert reopened["status"] == "INPUT_REQUIRED"
    assert reopened["agentJobStatus"] == "awaiting_input"
    assert reopened["jobStatusSettled"] is False
    assert await _account(app.state.db, user.workspace_id) == (to_base("3.95"), to_base("1.05"))
    request = await client.get(f"/v1/jobs/{data['id']}/input-request", headers=user.key_headers)
    assert request.status_code == 200, request.text
    events = (await client.get(f"/v1/jobs/{data['id']}/events", headers=user.key_headers)).json()[
        "data"
    ]
    rejected = [
        e
        for e in events
        if (e.get("detail") or {}).get("reason", "").startswith("the agent rejected")
    ]
    assert len(rejected) == 1, events
    assert rejected[0]["detail"]["error"] == "this answer is not acceptable"

    second = await client.post(
        f"/v1/jobs/{data['id']}/inputs",
        json={"inputData": {"approve": True, "note": "second"}},
        headers=user.key_headers,
    )
    assert second.status_code == 200, second.text
    await dispatcher(app).run_until_idle(5)
    done = await job(client, user.key_headers, data["id"])
    assert done["status"] == "COMPLETED"
    assert done["result"].endswith("Note: second")
    assert await _account(app.state.db, user.workspace_id) == (to_base("3.95"), 0)
