"""Fan-out at scale (kit/fanout.py): 200 live job streams on two API processes (each also
dispatching, as ``agora serve`` does) hold ONE receiver per process, not one per stream nor one
per consumer: with Redis configured one subscription per process (``PUBSUB NUMSUB``) and no
database listener; without, one LISTEN connection per process (``pg_stat_activity``). An event
written through one process still reaches a stream on the other at once (the streams' poll is
30 s)."""

from __future__ import annotations

import asyncio
import json
import time
import uuid
from typing import Any

import asyncpg
import httpx2
import pytest
from redis.asyncio import Redis
from sqlalchemy import make_url

from agora.sandbox.protocol import AgentJob, Step
from tests.jobs.helpers import echo
from tests.production.conftest import direct_url
from tests.support.agents import LoopbackAgents
from tests.support.server import create_user, run_cli, running_server
from tests.support.sse import ARRIVAL_SECONDS, FALLBACK_SECONDS, Frames

pytestmark = [pytest.mark.redis, pytest.mark.process]  # real processes: make prove
STREAMS = 200


def _running(_job: AgentJob) -> Step:
    return Step("running")  # the jobs stay open, and so do their streams


async def _create(base: str, key: str, agent: str) -> list[str]:
    gate = asyncio.Semaphore(8)
    async with httpx2.AsyncClient(headers={"x-api-key": key}, timeout=60) as http:

        async def one(i: int) -> str:
            async with gate:
                made = await http.post(
                    f"{base}/v1/agents/{agent}/jobs", json={"inputData": {"text": f"{i}"}}
                )
                assert made.status_code == 201, made.text
                return str(made.json()["data"]["id"])

        return await asyncio.gather(*(one(i) for i in range(STREAMS)))


async def _listeners(database_url: str) -> int:
    """Database connections listening: LISTEN last run, or the listener's application name."""
    url = make_url(database_url)
    conn = await asyncpg.connect(url.set(drivername="postgresql").render_as_string(False))
    try:
        count: int = await conn.fetchval(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = $1 "
            "AND (query LIKE 'LISTEN%' OR application_name = 'agora-listen')",
            url.database,
        )
        return count
    finally:
        await conn.close()


async def _subscriptions(redis_url: str, channel: str) -> dict[str, int]:
    redis = Redis.from_url(redis_url)
    try:
        numsub = dict(await redis.pubsub_numsub(channel))
        clients = await redis.client_list()
        return {
            "numsub": int(numsub.get(channel.encode(), 0)),
            "numpat": int(await redis.pubsub_numpat()),
            "fanout_clients": sum(1 for c in clients if c.get("name") == "agora-fanout"),
        }
    finally:
        await redis.aclose()


async def _streams_and_counts(
    bases: list[str], key: str, job_ids: list[str], database_url: str, redis_url: str, channel: str
) -> dict[str, Any]:
    limits = httpx2.Limits(max_connections=STREAMS + 20, max_keepalive_connections=STREAMS + 20)
    async with httpx2.AsyncClient(
        headers={"x-api-key": key}, timeout=FALLBACK_SECONDS * 2, limits=limits
    ) as http:
        frames: list[Frames] = []
        responses = []
        try:
            for i, job_id in enumerate(job_ids):
                request = http.build_request("GET", f"{bases[i % 2]}/v1/jobs/{job_id}/stream")
                response = await http.send(request, stream=True)
                assert response.status_code == 200, (i, response.status_code)
                responses.append(response)
                frames.append(Frames(response))
            firsts = await asyncio.gather(*(f.next(60) for f in frames))
            assert all(frame["event"] == "created" for frame in firsts)
            counts: dict[str, Any] = {
                "listeners": await _listeners(database_url),
                **await _subscriptions(redis_url, channel),
            }
            # An event written through the second process reaches a stream on the first.
            watched = frames[0]
            pending = asyncio.ensure_future(watched.next(FALLBACK_SECONDS * 2))
            await asyncio.sleep(0.2)
            done = await http.post(f"{bases[1]}/v1/jobs/{job_ids[0]}/cancel")
            assert done.status_code == 200, done.text
            sent = time.monotonic()
            frame = await pending
            while frame["event"] != "result":
                frame = await watched.next(FALLBACK_SECONDS * 2)
            counts["arrival_seconds"] = time.monotonic() - sent
            return counts
        finally:
            for response in responses:
                await response.aclose()


@pytest.mark.parametrize("fanout", ["postgres", "redis"])
def test_200_streams_on_two_api_processes_use_one_receiver_per_process(
    postgres_env: dict[str, str], redis_url: str, agents_server: LoopbackAgents, fanout: str
) -> None:
    channel = f"agora-fanout-test-{uuid.uuid4().hex[:12]}"
    env = {
        **postgres_env,
        "AGORA_RUN_DISPATCHER": "true",  # the dispatcher's wake-ups share the receiver
        "AGORA_JOB_STREAM_FALLBACK_SECONDS": str(FALLBACK_SECONDS),
        "AGORA_JOB_STREAM_MAX_PER_KEY": "1000",
        "AGORA_JOB_STREAM_MAX_PER_USER": "1000",
        "AGORA_STATUS_POLL_INITIAL_SECONDS": "60",  # running jobs are left alone meanwhile
        "AGORA_STATUS_POLL_MAX_SECONDS": "60",
        "AGORA_REDIS_FANOUT_CHANNEL": channel,
    }
    if fanout == "redis":
        env["AGORA_REDIS_URL"] = redis_url
    behaviour = echo()
    behaviour.step = _running
    user = create_user(env, "fanout@example.com", credits="1000")
    agent = json.loads(
        run_cli(
            env,
            "agents",
            "register",
            agents_server.serve(behaviour),
            "--name",
            "Open",
            "--price",
            "1",
            "--verify",
            "--json",
        )
    )["agentId"]
    with running_server(env) as first, running_server(env) as second:
        job_ids = asyncio.run(_create(first, user["apiKey"], agent))
        counts = asyncio.run(
            _streams_and_counts(
                [first, second], user["apiKey"], job_ids, direct_url(env), redis_url, channel
            )
        )
    print(f"\nfan-out ({fanout}), {STREAMS} streams on 2 API processes: {counts}")
    if fanout == "redis":
        assert counts["numsub"] == 2  # one subscription per process
        assert counts["listeners"] == 0  # and no database listener
    else:
        assert counts["listeners"] == 2  # one LISTEN connection per process
        assert counts["numsub"] == 0
    assert counts["arrival_seconds"] < ARRIVAL_SECONDS, counts
