"""Dispatch latency and job-creation throughput, on SQLite and on PostgreSQL.

    make bench-dispatch            (or: .venv/bin/python -m bench.dispatch [--jobs N] [--backend B])

Latency: from just before `POST /v1/agents/{id}/jobs` is sent to the moment the agent receives
`/start_job` (the agent records it), one job at a time on an otherwise idle system, with the
dispatcher running as it does in `agora serve`. Target: p50 ≤ 50 ms.
Throughput: paid jobs created by 16 concurrent clients against a fast agent (completes on the
first poll), and how fast they all complete. The API is called in-process (ASGI), the agent over
real loopback HTTP. PostgreSQL runs in a throwaway database that is dropped afterwards.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

import httpx2
from tests.support.agents import LoopbackAgents, loopback_agents

from agora.accounts import provisioning as identity
from agora.agents import service as agents
from agora.app import create_app
from agora.kit.db import Database
from agora.kit.logging import configure_logging
from agora.kit.migrate import upgrade
from agora.kit.money import to_base
from agora.sandbox.agents import DEMO_AGENTS
from agora.sandbox.protocol import Behaviour
from agora.settings import Settings
from bench.common import percentile, throwaway_postgres

TARGET_P50_MS = 50.0


async def _wait_status(http: httpx2.AsyncClient, job_id: str, want: str, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if (await http.get(f"/v1/jobs/{job_id}")).json()["data"]["status"] == want:
            return
        await asyncio.sleep(0.005)
    raise TimeoutError(f"job {job_id} not {want} after {seconds} s")


async def measure(db: Database, agents_server: LoopbackAgents, jobs: int) -> dict[str, Any]:
    await upgrade(db.engine)
    data_dir = Path(tempfile.mkdtemp(prefix="agora-bench-"))
    settings = Settings(
        database_url=db.url,
        data_dir=data_dir,
        secret_key="bench",
        rate_limit_public="off",
        rate_limit_authenticated="off",
        rate_limit_failed_auth="off",
        outbound_allow="127.0.0.0/8",  # the benchmark's agents are on loopback
        demo=False,
        run_dispatcher=True,
        availability_check_seconds=0,
        status_poll_initial_seconds=0.01,
        status_poll_max_seconds=0.2,
    )
    echo = DEMO_AGENTS[0].behaviour()
    behaviour = Behaviour("fast", echo.input_schema, echo.step)
    url = agents_server.serve(behaviour)
    app = create_app(settings, db=db, migrate=False)
    async with app.router.lifespan_context(app):
        probe = await agents.probe(app.state.agent_client, url)  # no transaction open
        async with db.transaction() as session:
            agent = await agents.register_agent(
                session,
                settings,
                probe,
                name="Fast",
                price=1,
                verify=True,
            )
            user = await identity.create_user(
                session,
                email=f"bench-{uuid.uuid4().hex[:8]}@example.com",
                name="Bench",
                credits=to_base(1_000_000),
            )
        path = f"/v1/agents/{agent.id}/jobs"
        body = {"inputData": {"text": "benchmark"}}
        transport = httpx2.ASGITransport(app=app)
        async with httpx2.AsyncClient(
            transport=transport, base_url="http://bench", headers={"x-api-key": user.api_key}
        ) as http:
            for _ in range(5):  # warm up connections and caches
                job_id = (await http.post(path, json=body)).json()["data"]["id"]
                await _wait_status(http, job_id, "COMPLETED", 10)
            latencies = []
            for _ in range(jobs):
                seen = len(behaviour.start_times)
                sent = time.monotonic()
                created = await http.post(path, json=body)
                assert created.status_code == 201, created.text
                deadline = sent + 10
                while len(behaviour.start_times) == seen:
                    if time.monotonic() > deadline:
                        raise TimeoutError("the job was not dispatched within 10 s")
                    await asyncio.sleep(0.0005)
                latencies.append((behaviour.start_times[seen] - sent) * 1000)
                await _wait_status(http, created.json()["data"]["id"], "COMPLETED", 10)

            total, clients = jobs * 2, 16
            queue = asyncio.Queue[int]()
            for i in range(total):
                queue.put_nowait(i)
            ids: list[str] = []

            async def client_loop() -> None:
                while not queue.empty():
                    queue.get_nowait()
                    response = await http.post(path, json=body)
                    assert response.status_code == 201, response.text
                    ids.append(response.json()["data"]["id"])

            started = time.monotonic()
            await asyncio.gather(*(client_loop() for _ in range(clients)))
            created_in = time.monotonic() - started
            for job_id in ids:
                await _wait_status(http, job_id, "COMPLETED", 60)
            completed_in = time.monotonic() - started
    return {
        "p50": statistics.median(latencies),
        "p99": percentile(latencies, 99),
        "max": max(latencies),
        "jobs": jobs,
        "created_per_s": total / created_in,
        "completed_per_s": total / completed_in,
        "total": total,
    }


async def run(backends: list[str], jobs: int) -> list[tuple[str, dict[str, Any]]]:
    results = []
    with loopback_agents() as served:
        for backend in backends:
            if backend == "sqlite":
                folder = Path(tempfile.mkdtemp(prefix="agora-bench-sqlite-"))
                db = Database(f"sqlite+aiosqlite:///{folder / 'bench.db'}")
                try:
                    results.append((backend, await measure(db, served, jobs)))
                finally:
                    await db.dispose()
            else:
                async with throwaway_postgres("agora_bench") as url:
                    db = Database(url, pool_size=20)
                    try:
                        results.append((backend, await measure(db, served, jobs)))
                    finally:
                        await db.dispose()
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=200, help="jobs for the latency run")
    parser.add_argument("--backend", choices=["all", "sqlite", "postgres"], default="all")
    args = parser.parse_args()
    configure_logging("WARNING")
    backends = ["sqlite", "postgres"] if args.backend == "all" else [args.backend]
    results = asyncio.run(run(backends, args.jobs))
    print(f"\nDispatch latency: creation request → agent receives /start_job ({args.jobs} jobs)")
    print(f"{'backend':<10}{'p50 ms':>9}{'p99 ms':>9}{'max ms':>9}{'p50 / 50 ms target':>21}")
    for backend, r in results:
        ratio = r["p50"] / TARGET_P50_MS
        print(f"{backend:<10}{r['p50']:>9.1f}{r['p99']:>9.1f}{r['max']:>9.1f}{ratio:>20.2f}x")
    print("\nJob creation throughput against a fast agent (16 concurrent clients, paid jobs)")
    print(f"{'backend':<10}{'jobs':>7}{'created/s':>12}{'completed/s':>13}")
    for backend, r in results:
        print(
            f"{backend:<10}{r['total']:>7}{r['created_per_s']:>12.1f}{r['completed_per_s']:>13.1f}"
        )


if __name__ == "__main__":
    main()
