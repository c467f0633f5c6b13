"""The dispatcher: leases and crash recovery, wake-ups without polling delay."""

from __future__ import annotations

import asyncio
import time
from datetime import timedelta

import httpx2
import pytest
from fastapi import FastAPI
from sqlalchemy import func, select, update

from agora.dispatch import repository as dispatch_repo
from agora.dispatch import worker as worker_module
from agora.jobs.signals import JOB_READY
from agora.kit.db import Database
from agora.kit.fanout import Fanout
from agora.kit.ids import parse_uuid
from agora.kit.money import to_base
from agora.kit.timeutil import utcnow
from agora.models import Job, LedgerEntry, Workspace
from agora.sandbox.protocol import Step
from tests.conftest import MakeUser
from tests.jobs.helpers import create, dispatcher, echo, job, register, reviewer
from tests.support.agents import LoopbackAgents


async def test_a_dead_workers_job_is_resumed_by_another_and_charged_once(
    app: FastAPI,
    client: httpx2.AsyncClient,
    make_user: MakeUser,
    agents_server: LoopbackAgents,
    db: Database,
) -> None:
    behaviour = echo()
    agent_id = await register(app, agents_server, behaviour, price=1)
    user = await make_user(credits=to_base(5))
    job_id = (await create(client, user.key_headers, agent_id)).json()["data"]["id"]
    dead, alive = dispatcher(app, owner="dead"), dispatcher(app, owner="alive")

    # The first worker claims the job and reaches the agent, then dies before writing anything.
    assert await dead.claim(10) == [parse_uuid(job_id)]
    async with db.transaction(write=False) as session:
        loaded = await dispatch_repo.load(session, parse_uuid(job_id))  # type: ignore[arg-type]
    assert loaded is not None
    snapshot, base_url, _ = loaded
    await app.state.agent_client.start_job(
        base_url,
        identifier_from_purchaser=snapshot.identifier_from_purchaser,
        input_data=snapshot.input_data,
    )
    # While the lease holds, nobody else takes the job.
    assert await alive.run_once() == 0
    async with db.transaction() as session:  # time passes: the lease lapses
        await session.execute(update(Job).values(lease_expires_at=utcnow() - timedelta(seconds=1)))
    await alive.run_until_idle(5)

    done = await job(client, user.key_headers, job_id)
    assert done["status"] == "COMPLETED"
    assert len(behaviour.started) == 1  # the restart reused identifier_from_purchaser
    assert done["agentJobId"] == behaviour.started[0]
    async with db.transaction(write=False) as session:
        kinds = list(
            await session.scalars(
                select(LedgerEntry.kind)
                .where(LedgerEntry.workspace_id == user.workspace_id)
                .order_by(LedgerEntry.created_at, LedgerEntry.id)
            )
        )
        ws = await session.get(Workspace, user.workspace_id)
        assert ws is not None
    assert kinds == ["grant", "hold", "capture"]
    assert (ws.balance, ws.held) == (to_base("3.95"), 0)
    # The dead worker's late write loses the compare-and-set and changes nothing.
    assert await dead.transition(snapshot, "RUNNING", detail={}) is False


async def test_background_dispatcher_starts_new_jobs_at_once(
    app: FastAPI,
    client: httpx2.AsyncClient,
    make_user: MakeUser,
    agents_server: LoopbackAgents,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The safety poll far away: only the wake-up can start a job within the deadline.
    monkeypatch.setattr(worker_module, "IDLE_POLL_SECONDS", 30.0)
    behaviour = echo()
    agent_id = await register(app, agents_server, behaviour)
    user = await make_user()
    worker = dispatcher(app)
    await worker.start()
    try:
        await asyncio.sleep(0.1)  # the worker is idle, waiting
        assert worker.readiness() == (True, "ok")
        latencies = []
        for _ in range(3):
            started = time.monotonic()
            job_id = (await create(client, user.key_headers, agent_id)).json()["data"]["id"]
            deadline = time.monotonic() + 5
            while len(behaviour.start_times) < len(latencies) + 1:
                assert time.monotonic() < deadline, "the job was not dispatched"
                await asyncio.sleep(0.002)
            latencies.append(behaviour.start_times[-1] - started)
            for _ in range(500):
                if (await job(client, user.key_headers, job_id))["status"] == "COMPLETED":
                    break
                await asyncio.sleep(0.01)
            assert (await job(client, user.key_headers, job_id))["status"] == "COMPLETED"
        # Far below the (30 s) safety poll: the commit woke the worker.
        assert max(latencies) < 1.5, latencies
    finally:
        await worker.stop()
    assert worker.readiness()[0] is False


@pytest.mark.postgres_only
async def test_listen_notify_wakes_a_worker_of_another_process(
    app: FastAPI, db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A NOTIFY from another connection (another process's commit) wakes the dispatcher through
    its process's fan-out (one LISTEN connection, kit/fanout.py), far before its poll."""
    monkeypatch.setattr(worker_module, "IDLE_POLL_SECONDS", 30.0)  # only NOTIFY can be in time
    worker = dispatcher(app)
    worker.fanout = Fanout((JOB_READY,), listen_url=db.url)
    await worker.start()
    try:
        deadline = time.monotonic() + 10
        while not worker.fanout.listening:
            assert time.monotonic() < deadline, "the fan-out did not listen"
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.5)  # the round woken by the (re)connect is over; now it waits
        rounds = worker.loop.rounds
        async with db.engine.connect() as conn:
            await conn.execute(select(func.pg_notify(JOB_READY, "")))
            await conn.commit()
        started = time.monotonic()
        while worker.loop.rounds == rounds:
            assert time.monotonic() - started < 2.0, "not woken by the NOTIFY"
            await asyncio.sleep(0.005)
    finally:
        await worker.stop()
        await worker.fanout.stop()


async def test_a_lost_answer_is_not_asked_again(
    app: FastAPI,
    client: httpx2.AsyncClient,
    make_user: MakeUser,
    agents_server: LoopbackAgents,
    db: Database,
) -> None:
    """A worker delivered the answer and died: the retry is rejected by the agent, which has
    moved on, so the job carries on instead of asking the user again."""
    agent_id = await register(app, agents_server, reviewer())
    user = await make_user()
    job_id = (await create(client, user.key_headers, agent_id)).json()["data"]["id"]
    await dispatcher(app).run_until_idle(5)
    answer = {"inputData": {"approve": True}}
    posted = await client.post(f"/v1/jobs/{job_id}/inputs", json=answer, headers=user.key_headers)
    assert posted.status_code == 200
    async with db.transaction(write=False) as session:
        snapshot = await session.get(Job, parse_uuid(job_id))
        agent_base = (await dispatch_repo.load(session, snapshot.id))[1]  # type: ignore[union-attr]
    assert snapshot is not None
    await app.state.agent_client.provide_input(
        agent_base,
        job_id=snapshot.agent_job_id,  # type: ignore[arg-type]
        status_id=snapshot.input_request["statusId"],  # type: ignore[index]
        input_data={"approve": True},
    )
    await dispatcher(app).run_until_idle(5)
    assert (await job(client, user.key_headers, job_id))["status"] == "COMPLETED"


async def test_answering_a_job_that_is_not_waiting_is_409(
    app: FastAPI, client: httpx2.AsyncClient, make_user: MakeUser, agents_server: LoopbackAgents
) -> None:
    agent_id = await register(app, agents_server, reviewer())
    user = await make_user()
    job_id = (await create(client, user.key_headers, agent_id)).json()["data"]["id"]
    early = await client.post(
        f"/v1/jobs/{job_id}/inputs", json={"inputData": {"approve": True}}, headers=user.key_headers
    )
    assert early.status_code == 409
    await dispatcher(app).run_until_idle(5)
    stale = await client.post(
        f"/v1/jobs/{job_id}/inputs",
        json={"inputData": {"approve": True}, "statusId": "not-the-open-one"},
        headers=user.key_headers,
    )
    assert stale.status_code == 409


async def test_a_job_past_its_deadline_fails_with_a_refund(
    app: FastAPI,
    client: httpx2.AsyncClient,
    make_user: MakeUser,
    agents_server: LoopbackAgents,
    db: Database,
) -> None:
    agent_id = await register(app, agents_server, echo(), price=1)
    user = await make_user(credits=to_base(2))
    job_id = (await create(client, user.key_headers, agent_id)).json()["data"]["id"]
    async with db.transaction() as session:
        await session.execute(update(Job).values(deadline_at=utcnow() - timedelta(seconds=1)))
    await dispatcher(app).run_until_idle(5)
    failed = await job(client, user.key_headers, job_id)
    assert failed["status"] == "FAILED"
    assert failed["error"] == "the job ran past its deadline"
    assert failed["refund"]["credits"] == 1.05


async def test_concurrent_claims_never_share_a_job(
    app: FastAPI, client: httpx2.AsyncClient, make_user: MakeUser, agents_server: LoopbackAgents
) -> None:
    agent_id = await register(app, agents_server, echo())
    user = await make_user()
    for _ in range(12):
        await create(client, user.key_headers, agent_id)
    workers = [dispatcher(app, owner=f"w{i}") for i in range(4)]
    claims = await asyncio.gather(*(w.claim(5) for w in workers))
    flat = [job_id for claimed in claims for job_id in claimed]
    assert len(flat) == len(set(flat)) == 12
    assert await workers[0].claim(5) == []  # every lease is live


async def test_polls_that_change_nothing_keep_the_jobs_place_in_the_feed(
    app: FastAPI,
    client: httpx2.AsyncClient,
    make_user: MakeUser,
    agents_server: LoopbackAgents,
    db: Database,
) -> None:
    behaviour = echo()
    behaviour.step = lambda agent_job: (
        Step("completed", result="done") if agent_job.polls >= 6 else Step("running")
    )
    agent_id = await register(app, agents_server, behaviour)
    user = await make_user()
    job_id = (await create(client, user.key_headers, agent_id)).json()["data"]["id"]
    worker = dispatcher(app)

    async def updated_at() -> object:
        async with db.transaction(write=False) as session:
            return await session.scalar(select(Job.updated_at).where(Job.id == parse_uuid(job_id)))

    await worker.run_once()  # /start_job → RUNNING (a change: updatedAt moves)
    started = await updated_at()
    for _ in range(3):  # leases and "still running" polls are bookkeeping
        await asyncio.sleep(0.06)
        await worker.run_once()
        assert await updated_at() == started
    await worker.run_until_idle()
    assert await updated_at() != started  # COMPLETED moves it again
