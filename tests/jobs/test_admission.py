"""Job admission (jobs/admission.py): its declared order, and that the order is the one a real
creation locks in.

- The declared steps: the checks write nothing and come first; of the writes, the rows every
  creation of a workspace (of an agent) updates — spending caps, the workspace's credits, the
  agent's job count — are locked by the last steps, in that order, after the NOTIFYs are sent.
- PostgreSQL: a creation kept waiting on one of those rows (another connection holds it) already
  holds the ones declared before it and none declared after it (seen from a third connection
  with ``FOR UPDATE NOWAIT``).
- Both databases: concurrent creations of one organization's workspace on two agents, its members
  capped, are all answered (201, or 402 past a cap; a deadlock would be a 5xx), and the holds,
  the caps' spending and the agents' job counts are exact.
"""

from __future__ import annotations

import asyncio
import time
import uuid

import httpx2
import pytest
from fastapi import FastAPI
from sqlalchemy import select, text
from sqlalchemy.exc import DBAPIError

from agora.jobs import admission
from agora.kit.db import Database
from agora.kit.money import to_base
from agora.models import Agent
from tests.billing.test_caps import SLUG, organization, set_cap, workspace_spend
from tests.conftest import MakeUser
from tests.jobs.helpers import create, echo, register
from tests.support.agents import LoopbackAgents

SHARED = ("spending_caps", "workspaces", "agents")  # the declared lock order, as tables


def test_the_shared_rows_are_locked_last_and_in_one_order() -> None:
    writes = [step.name for step in admission.WRITES]
    locks = [(index, step.locks) for index, step in enumerate(admission.WRITES) if step.locks]
    assert [lock for _, lock in locks] == ["spending caps", "workspace", "agent"]
    first = locks[0][0]
    assert writes[:first] == [
        "the job",
        "its created event",
        "its webhook",
        "the dispatcher woken",
        "the NOTIFYs sent",
    ]
    # Between the locks only what needs the hold's answer (the warning); the agent's row last.
    assert [s.name for s in admission.WRITES[first:] if not s.locks] == ["the low-balance warning"]
    assert admission.WRITES[-1].locks == "agent"
    assert [step.name for step in admission.CHECKS] == [
        "the agent takes jobs",
        "the price is within the maximum",
        "the input matches the schema",
        "the input files are the workspace's",
        "the webhook may be called",
        "the task is live",
        "the share's organization is yours",
    ]
    assert not any(step.locks for step in admission.CHECKS)


async def _waiting_on(db: Database, statement: str, seconds: float = 10.0) -> None:
    """Until a backend of this database waits for a row lock while running ``statement``."""
    deadline = time.monotonic() + seconds
    while True:
        async with db.engine.connect() as conn:
            waiting = (
                await conn.execute(
                    text(
                        "SELECT query FROM pg_stat_activity WHERE datname = current_database() "
                        "AND wait_event_type = 'Lock' AND state = 'active'"
                    )
                )
            ).scalars()
            if any(query.lstrip().upper().startswith(statement) for query in waiting):
                return
        assert time.monotonic() < deadline, f"no creation waits at {statement!r}"
        await asyncio.sleep(0.02)


async def _is_locked(db: Database, table: str, row_id: uuid.UUID) -> bool:
    async with db.engine.connect() as conn:
        try:
            await conn.execute(
                text(f"SELECT 1 FROM {table} WHERE id = :id FOR NO KEY UPDATE NOWAIT"),
                {"id": row_id},
            )
        except DBAPIError as exc:
            if "could not obtain lock" not in str(exc):
                raise
            return True
        finally:
            await conn.rollback()
    return False


@pytest.mark.postgres_only
@pytest.mark.parametrize("held", SHARED)
async def test_a_creation_waiting_on_a_shared_row_holds_the_ones_before_it(
    held: str,
    app: FastAPI,
    client: httpx2.AsyncClient,
    make_user: MakeUser,
    agents_server: LoopbackAgents,
    db: Database,
) -> None:
    agent_id = await register(app, agents_server, echo(), price=2)
    owner, _admin, member, ws = await organization(db, make_user, "100")
    cap = await set_cap(client, owner, {"userId": str(member.user_id), "monthlyLimit": 50})
    assert cap.status_code == 200, cap.text
    rows = {
        "spending_caps": uuid.UUID(cap.json()["data"]["id"]),
        "workspaces": ws.id,
        "agents": uuid.UUID(agent_id),
    }
    headers = {**member.key_headers, **SLUG}
    async with db.engine.connect() as blocker:
        # NO KEY UPDATE, as an UPDATE of the row locks it: the job's own foreign keys (FOR KEY
        # SHARE on its workspace and agent, at its insert) do not wait for it.
        await blocker.execute(
            text(f"SELECT 1 FROM {held} WHERE id = :id FOR NO KEY UPDATE"), {"id": rows[held]}
        )
        creating = asyncio.ensure_future(create(client, headers, agent_id))
        try:
            await _waiting_on(db, f"UPDATE {held.upper()}")
            position = SHARED.index(held)
            for table in SHARED[:position]:
                assert await _is_locked(db, table, rows[table]), f"{table} not locked before {held}"
            for table in SHARED[position + 1 :]:
                assert not await _is_locked(db, table, rows[table]), f"{table} locked before {held}"
        finally:
            await blocker.rollback()
        answer = await asyncio.wait_for(creating, 30)
    assert answer.status_code == 201, answer.text


async def test_concurrent_creations_on_two_agents_are_all_answered_and_exact(
    app: FastAPI,
    client: httpx2.AsyncClient,
    make_user: MakeUser,
    agents_server: LoopbackAgents,
    db: Database,
) -> None:
    first = await register(app, agents_server, echo(), price=2)  # 2.1 a job, fee included
    second = await register(app, agents_server, echo(), price=2)
    owner, admin, member, ws = await organization(db, make_user, "27.3")  # 13 jobs' worth
    for who, limit in ((member, 10.5), (admin, 21)):  # 5 and 10 jobs: 5 + 8 asked = 13
        capped = await set_cap(client, owner, {"userId": str(who.user_id), "monthlyLimit": limit})
        assert capped.status_code == 200, capped.text
    calls = [
        create(client, {**who.key_headers, **SLUG}, agent)
        for _ in range(4)
        for who in (member, admin)
        for agent in (first, second)
    ]
    answers = await asyncio.wait_for(asyncio.gather(*calls), timeout=120)
    codes = [answer.status_code for answer in answers]
    assert set(codes) <= {201, 402}, [a.text for a in answers if a.status_code not in (201, 402)]
    created = [answer.json()["data"] for answer in answers if answer.status_code == 201]
    by_user = {
        who: sum(1 for job in created if job["userId"] == str(who.user_id))
        for who in (member, admin)
    }
    assert by_user[member] == 5 and by_user[admin] == 8  # the member's cap; the balance is used up
    jobs, held, spent = await workspace_spend(db, ws.id)
    async with db.transaction(write=False) as session:
        counts = {
            str(agent.id): agent.job_count
            for agent in await session.scalars(
                select(Agent).where(Agent.id.in_([uuid.UUID(first), uuid.UUID(second)]))
            )
        }
    assert jobs == len(created) == 13
    assert held == to_base("27.3")
    assert spent == {member.user_id: 5 * to_base("2.1"), admin.user_id: 8 * to_base("2.1")}
    assert counts == {
        agent: sum(1 for job in created if job["agentId"] == agent) for agent in (first, second)
    }
