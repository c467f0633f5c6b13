"""GET /v1/jobs/{id}/stream across real processes on PostgreSQL: a stream served by one API
process receives the events an `agora worker` process writes (the job running, then completed)
and a cancellation made through a second API process — each within seconds, while the API's
poll fallback is 30 s, so they came by LISTEN/NOTIFY."""

from __future__ import annotations

import asyncio
import json
import time
from datetime import datetime

import httpx2
import pytest

from tests.jobs.helpers import echo
from tests.production.conftest import VIA, workers
from tests.support.agents import LoopbackAgents
from tests.support.server import create_user, run_cli, running_server
from tests.support.sse import ARRIVAL_SECONDS, FALLBACK_SECONDS, Frames

pytestmark = pytest.mark.process  # real processes: make prove


def _age(frame: dict[str, str]) -> float:
    """Seconds from the event's creation (its writer's clock: this machine) to now."""
    created = datetime.fromisoformat(json.loads(frame["data"])["createdAt"])
    return time.time() - created.timestamp()


async def _watch(base: str, key: str, job_id: str, frames_wanted: int) -> list[dict[str, str]]:
    out: list[dict[str, str]] = []
    async with (
        httpx2.AsyncClient(timeout=FALLBACK_SECONDS * 2) as http,
        http.stream(
            "GET", f"{base}/v1/jobs/{job_id}/stream", headers={"x-api-key": key}
        ) as response,
    ):
        assert response.status_code == 200
        frames = Frames(response)
        for _ in range(frames_wanted):
            frame = await frames.next(FALLBACK_SECONDS * 2)
            frame["age"] = f"{_age(frame):.3f}"
            out.append(frame)
    return out


async def _cancel_later(base: str, key: str, job_id: str) -> None:
    await asyncio.sleep(0.5)  # the stream is open and waiting
    async with httpx2.AsyncClient(timeout=10) as http:
        done = await http.post(f"{base}/v1/jobs/{job_id}/cancel", headers={"x-api-key": key})
        assert done.status_code == 200, done.text


@pytest.mark.parametrize("postgres_env", VIA, indirect=True)
def test_streams_receive_events_written_by_other_processes(
    postgres_env: dict[str, str], agents_server: LoopbackAgents
) -> None:
    env = {**postgres_env, "AGORA_JOB_STREAM_FALLBACK_SECONDS": str(FALLBACK_SECONDS)}
    user = create_user(env, "stream@example.com", credits="100")
    key = user["apiKey"]
    agent = json.loads(
        run_cli(
            env,
            "agents",
            "register",
            agents_server.serve(echo()),
            "--name",
            "Echo",
            "--verify",
            "--json",
        )
    )["agentId"]

    async def create(base: str) -> str:
        async with httpx2.AsyncClient(timeout=10) as http:
            made = await http.post(
                f"{base}/v1/agents/{agent}/jobs",
                json={"inputData": {"text": "hi"}},
                headers={"x-api-key": key},
            )
            assert made.status_code == 201, made.text
            return str(made.json()["data"]["id"])

    with running_server(env) as api, running_server(env) as other_api:
        # A cancellation through the other API process.
        cancelled = asyncio.run(create(api))

        async def watch_cancel() -> list[dict[str, str]]:
            watching = asyncio.ensure_future(_watch(api, key, cancelled, 2))
            await _cancel_later(other_api, key, cancelled)
            return await watching

        created, result = asyncio.run(watch_cancel())
        assert created["event"] == "created" and result["event"] == "result"
        assert float(result["age"]) < ARRIVAL_SECONDS, result["age"]

        # A job advanced by a worker process: every event it writes arrives at once.
        job_id = asyncio.run(create(api))

        async def watch_worker() -> list[dict[str, str]]:
            watching = asyncio.ensure_future(_watch(api, key, job_id, 3))
            await asyncio.sleep(0.5)  # the stream is open before the worker starts
            with workers(env, 1):
                return await watching

        frames = asyncio.run(watch_worker())
        assert [json.loads(f["data"])["toStatus"] for f in frames] == [
            "PENDING",
            "RUNNING",
            "COMPLETED",
        ]
        assert all(float(f["age"]) < ARRIVAL_SECONDS for f in frames[1:]), frames
