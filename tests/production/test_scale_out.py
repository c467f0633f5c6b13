"""Two API processes and two workers on one PostgreSQL and one Redis (loopback): 500 jobs created
through both APIs against a fast agent complete exactly once, each agent call happens once per job,
credits add up to the base unit, and the rate-limit budget is shared."""

from __future__ import annotations

import asyncio
import json
import time
import uuid
from typing import Any

import httpx2
import pytest
from sqlalchemy import func, select

from agora.kit.db import Database
from agora.kit.money import to_base
from agora.models import Job, JobEvent, LedgerEntry, Workspace
from tests.jobs.helpers import echo
from tests.production.conftest import VIA, direct_url, wait_until, workers
from tests.support.agents import LoopbackAgents
from tests.support.server import create_user, run_cli, running_server

pytestmark = [pytest.mark.redis, pytest.mark.process]  # real processes: make prove
JOBS = 500
LIMIT = 2000  # per key per minute, shared by both API processes through Redis


async def _create_all(bases: list[str], key: str, agent_id: str) -> list[httpx2.Response]:
    gate = asyncio.Semaphore(16)
    async with httpx2.AsyncClient(headers={"x-api-key": key}, timeout=30) as http:

        async def one(i: int) -> httpx2.Response:
            async with gate:
                return await http.post(
                    f"{bases[i % 2]}/v1/agents/{agent_id}/jobs",
                    json={"inputData": {"text": f"job {i}"}},
                )

        return await asyncio.gather(*(one(i) for i in range(JOBS)))


async def _db_state(url: str, workspace_id: str) -> dict[str, Any]:
    db = Database(url)
    try:
        async with db.transaction(write=False) as s:
            statuses = dict(
                (await s.execute(select(Job.status, func.count()).group_by(Job.status))).all()
            )
            completions = (
                await s.execute(
                    select(JobEvent.job_id, func.count())
                    .where(JobEvent.to_status == "COMPLETED")
                    .group_by(JobEvent.job_id)
                )
            ).all()
            ledger = dict(
                (
                    await s.execute(
                        select(LedgerEntry.kind, func.count()).group_by(LedgerEntry.kind)
                    )
                ).all()
            )
            workspace = await s.get(Workspace, uuid.UUID(workspace_id))
            assert workspace is not None
            return {
                "statuses": statuses,
                "completed_once": sorted({n for _, n in completions}),
                "completed_jobs": len(completions),
                "ledger": ledger,
                "balance": workspace.balance,
                "held": workspace.held,
            }
    finally:
        await db.dispose()


@pytest.mark.parametrize("postgres_env", VIA, indirect=True)
def test_500_jobs_through_two_apis_and_two_workers(
    postgres_env: dict[str, str], redis_url: str, agents_server: LoopbackAgents
) -> None:
    env = {
        **postgres_env,
        "AGORA_REDIS_URL": redis_url,
        "AGORA_RATE_LIMIT_AUTHENTICATED": f"{LIMIT}/minute",
        "AGORA_RATE_LIMIT_KEY_PREFIX": f"agora-rl-{uuid.uuid4().hex}",
    }
    behaviour = echo()
    url = agents_server.serve(behaviour)
    user = create_user(env, "scale@example.com", credits="1000")
    agent = json.loads(
        run_cli(
            env, "agents", "register", url, "--name", "Fast", "--price", "1", "--verify", "--json"
        )
    )["agentId"]

    with running_server(env) as first, running_server(env) as second, workers(env, 2):
        started = time.monotonic()
        responses = asyncio.run(_create_all([first, second], user["apiKey"], agent))
        created_in = time.monotonic() - started
        assert [r.status_code for r in responses] == [201] * JOBS
        # Both processes counted against one budget: the last answers saw ~LIMIT - JOBS left.
        remaining = min(int(r.headers["x-ratelimit-remaining"]) for r in responses)
        assert remaining == LIMIT - JOBS

        def all_done() -> bool:
            state = asyncio.run(_db_state(direct_url(env), user["workspaceId"]))
            return state["statuses"].get("COMPLETED", 0) == JOBS

        wait_until(all_done, f"{JOBS} jobs completed", 180)
        finished_in = time.monotonic() - started

    state = asyncio.run(_db_state(direct_url(env), user["workspaceId"]))
    assert state["statuses"] == {"COMPLETED": JOBS}
    assert state["completed_jobs"] == JOBS
    assert state["completed_once"] == [1]  # no job completed twice
    assert len(behaviour.started) == JOBS  # one /start_job per job (no lease expired here)
    assert len(set(behaviour.started)) == JOBS
    price = to_base("1.05")  # 1 credit + 5 % fee
    assert state["ledger"] == {"grant": 1, "hold": JOBS, "capture": JOBS}
    assert (state["balance"], state["held"]) == (to_base(1000) - JOBS * price, 0)
    print(  # the figures for docs/production.md (pytest -s shows them)
        f"\nscale-out: {JOBS} jobs created in {created_in:.1f} s "
        f"({JOBS / created_in:.0f}/s), all completed after {finished_in:.1f} s "
        f"({JOBS / finished_in:.0f}/s end to end)"
    )
