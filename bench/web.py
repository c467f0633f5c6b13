"""Web app server time: the gallery (100 agents), the job page, an agent page, and the history,
project and task pages, p50/p99 on SQLite and PostgreSQL, and the job stream's delay from a
committed status change to its event.

``.venv/bin/python -m bench.web [--requests 200] [--backend all|sqlite|postgres]``

The pages are requested in-process through the ASGI transport (server time including routing,
the session lookup, the services and the template; no sockets). The stream delay is measured at
an HTTP client of ``GET /v1/jobs/{id}/stream`` served by uvicorn on loopback: from the commit of
a job's cancellation by another engine (another connection) to the client reading that event's
frame — on PostgreSQL through LISTEN/NOTIFY (the server's poll fallback is set to 30 s, so
nothing else could deliver it in time), on SQLite through the in-process wake-up.
"""

from __future__ import annotations

import argparse
import asyncio
import socket
import tempfile
import time
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import timedelta
from pathlib import Path

import httpx2
import uvicorn
from fastapi import FastAPI

from agora.accounts import provisioning as identity
from agora.accounts import service as accounts
from agora.agents import repository as agents_repo
from agora.app import create_app
from agora.auth.service import authenticate
from agora.jobs import service as jobs
from agora.jobs.schemas import JobCreate
from agora.kit.db import Database
from agora.kit.logging import configure_logging
from agora.kit.migrate import upgrade
from agora.kit.timeutil import utcnow
from agora.models import AgentCheck, Job
from agora.sandbox.agents import ECHO_SCHEMA
from agora.settings import Settings
from bench.common import percentile, throwaway_postgres

TARGET_PAGE_MS = 30.0
CHECKS_PER_AGENT = 50
COMPLETED_JOBS = 1500
TARGET_STREAM_MS = 100.0


async def _seed(db: Database) -> tuple[str, str]:
    """100 verified agents; a user with credits and a key. Returns (agent id, key)."""
    rows = [
        {
            "id": uuid.uuid4(),
            "name": f"Agent {n:03d}",
            "description": f"Bench agent number {n}: summarises, translates and reviews text.",
            "base_url": f"http://127.0.0.1:9/agent{n}",
            "status": "VERIFIED",
            "is_shown": True,
            "pricing_type": "FREE",
            "price": 0,
            "fee": 0,
            "tags": [{"name": "bench"}, {"name": f"t{n % 7}"}],
            "input_schema": ECHO_SCHEMA,
            "agent_identifier": f"bench-{n}",
            "job_count": n,
        }
        for n in range(100)
    ]
    async with db.transaction() as session:
        await agents_repo.add_many(session, rows)
        created = await identity.create_user(
            session, email="bench@example.com", name="Bench", credits=10**9
        )
        # A stored availability history (the badges read each agent's latest check) and a run
        # history for agent 0 (its page averages the latest 1000 completed jobs).
        start = utcnow() - timedelta(days=30)
        session.add_all(
            AgentCheck(
                agent_id=row["id"],
                kind="periodic",
                available=(n + k) % 5 != 0,
                checked_at=start + timedelta(hours=k),
            )
            for n, row in enumerate(rows)
            for k in range(CHECKS_PER_AGENT)
        )
        session.add_all(
            Job(
                workspace_id=created.workspace.id,
                user_id=created.user.id,
                agent_id=rows[0]["id"],
                name=f"bench job {k}",
                status="COMPLETED",
                input_data={"text": "hi"},
                identifier_from_purchaser=uuid.uuid4().hex[:26],
                dispatch_state="done",
                created_at=start + timedelta(minutes=k),
                started_at=start + timedelta(minutes=k, seconds=1),
                completed_at=start + timedelta(minutes=k, seconds=2 + k % 60),
                updated_at=start + timedelta(minutes=k, seconds=2 + k % 60),
            )
            for k in range(COMPLETED_JOBS)
        )
    return str(rows[0]["id"]), created.api_key


async def _time(client: httpx2.AsyncClient, path: str, n: int) -> list[float]:
    out = []
    for _ in range(n):
        started = time.perf_counter()
        response = await client.get(path)
        out.append((time.perf_counter() - started) * 1000)
        assert response.status_code == 200, (path, response.status_code)
    return out


async def _work_pages(client: httpx2.AsyncClient, key: str, n: int) -> dict[str, list[float]]:
    """A project with 25 tasks (one with 20 events) and 25 more outside it; the history page (20
    feed items), the project page (20 tasks with their move/assign/archive forms), a task page."""
    headers = {"x-api-key": key}
    made = await client.post("/v1/projects", json={"name": "Bench"}, headers=headers)
    project_id = made.json()["data"]["id"]
    task_ids = []
    for i in range(50):
        task = await client.post("/v1/tasks", json={"name": f"Task {i}"}, headers=headers)
        task_ids.append(task.json()["data"]["id"])
    for task_id in task_ids[:25]:
        placed = await client.post(
            f"/v1/projects/{project_id}/tasks", json={"taskId": task_id}, headers=headers
        )
        assert placed.status_code == 200, placed.text
    for i in range(20):
        await client.post(
            f"/v1/tasks/{task_ids[0]}/events", json={"comment": f"note {i}"}, headers=headers
        )
    paths = {
        "history": "/history",
        "project page": f"/projects/{project_id}",
        "task page": f"/tasks/{task_ids[0]}",
    }
    out = {}
    for name, path in paths.items():
        await _time(client, path, 10)  # warm-up
        out[name] = await _time(client, path, n)
    return out


async def _next_event(lines: AsyncIterator[str]) -> str:
    """The next SSE frame that carries an event (``retry`` and comments skipped)."""
    frame: list[str] = []
    async for line in lines:
        if line:
            frame.append(line)
        elif any(part.startswith("event:") for part in frame):
            return "\n".join(frame)
        else:
            frame = []
    raise RuntimeError("the stream ended")


@asynccontextmanager
async def _served(settings: Settings) -> AsyncIterator[tuple[str, FastAPI]]:
    """The app (its own engine) on a loopback port, in this event loop; 30 s poll fallback."""
    app = create_app(
        settings.with_changes(job_stream_fallback_seconds=30.0),
        migrate=False,
        background=False,
    )
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = uvicorn.Server(
        uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", access_log=False)
    )
    task = asyncio.create_task(server.serve())
    try:
        for _ in range(500):  # 10 s at most
            if server.started:
                break
            await asyncio.sleep(0.02)
        else:
            raise RuntimeError("the bench server did not start")
        yield f"http://127.0.0.1:{port}", app
    finally:
        server.should_exit = True
        await asyncio.wait_for(task, 15)


async def _stream_delays(
    settings: Settings, key: str, agent_id: str, n: int
) -> tuple[list[float], str]:
    """From the commit of a cancellation by another engine (another connection: on PostgreSQL
    only its NOTIFY can wake the server's stream) to the client reading that SSE frame over
    loopback HTTP. One warm-up change first (the listener starts with the first stream)."""
    writer = Database(settings.database_url)
    delays: list[float] = []
    try:
        async with writer.transaction() as session:
            principal = await authenticate(session, writer, key)
        async with _served(settings) as (base, served):
            receiver = served.state.fanout.receiver
            async with httpx2.AsyncClient(
                base_url=base, headers={"x-api-key": key}, timeout=60
            ) as http:
                for _ in range(n + 1):
                    async with writer.transaction() as session:
                        created = await jobs.create_job(
                            session, principal, agent_id, JobCreate(inputData={"text": "hi"}),
                            settings=settings,
                        )  # fmt: skip
                    job_id = str(created.job.row.id)
                    async with http.stream("GET", f"/v1/jobs/{job_id}/stream") as response:
                        lines = response.aiter_lines()
                        await _next_event(lines)  # the creation event
                        pending = asyncio.ensure_future(_next_event(lines))
                        await asyncio.sleep(0.01)  # the stream is waiting
                        async with writer.transaction() as session:
                            await jobs.cancel_job(session, principal, job_id, settings=settings)
                        committed = time.perf_counter()
                        frame = await asyncio.wait_for(pending, timeout=60)
                        delays.append((time.perf_counter() - committed) * 1000)
                        assert "CANCELLED" in frame
            path = "in-process wake-up" if receiver is None else "LISTEN/NOTIFY"
            if receiver is not None:
                path += f", {receiver.connects} connect(s)"
    finally:
        await writer.dispose()
    return delays[1:], path


async def _one(url: str, label: str, requests: int) -> dict[str, float]:
    db = Database(url)
    await upgrade(db.engine)
    settings = Settings(database_url=url, demo=False, rate_limit_public="off")
    app = create_app(settings, db=db, migrate=False, background=False)
    try:
        async with app.router.lifespan_context(app):
            agent_id, key = await _seed(db)
            transport = httpx2.ASGITransport(app=app)
            async with httpx2.AsyncClient(transport=transport, base_url="http://bench") as client:
                listed = await client.get("/v1/agents", params={"limit": 1})
                assert listed.json()["meta"]["pagination"]["total"] == 100
                made = await client.post(
                    f"/v1/agents/{agent_id}/jobs",
                    json={"inputData": {"text": "hi"}},
                    headers={"x-api-key": key},
                )
                job_id = made.json()["data"]["id"]
                async with db.transaction() as session:  # a browser session for the job page
                    link = await accounts.demo_sign_in_link(
                        session, settings, "bench@example.com", "http://bench"
                    )
                assert link is not None
                token = link.rsplit("token=", 1)[1]
                signed = await client.post("/magic-link", data={"token": token, "csrf": ""})
                assert signed.status_code == 303
                await _time(client, "/agents?page=1", 10)  # warm-up
                gallery = await _time(client, "/agents", requests)
                search = await _time(client, "/agents?q=translates", requests)
                await _time(client, f"/jobs/{job_id}", 10)
                job_page = await _time(client, f"/jobs/{job_id}", requests)
                await _time(client, f"/agents/{agent_id}", 10)
                agent_page = await _time(client, f"/agents/{agent_id}", requests)
                work = await _work_pages(client, key, requests)
            delays, path = await _stream_delays(settings, key, agent_id, min(requests, 50))
    finally:
        await db.dispose()
    figures = {
        "gallery p50": percentile(gallery, 50),
        "gallery p99": percentile(gallery, 99),
        "gallery q p50": percentile(search, 50),
        "job page p50": percentile(job_page, 50),
        "job page p99": percentile(job_page, 99),
        "agent page p50": percentile(agent_page, 50),
        "agent page p99": percentile(agent_page, 99),
        **{f"{name} p50": percentile(times, 50) for name, times in work.items()},
        "stream delay p50": percentile(delays, 50),
        "stream delay p99": percentile(delays, 99),
    }
    print(f"\n{label} (stream fed by {path}; {len(delays)} changes)")
    for name, value in figures.items():
        target = TARGET_STREAM_MS if name.startswith("stream") else TARGET_PAGE_MS
        ratio = f"  ({value / target:.2f}x target)" if "p50" in name else ""
        print(f"  {name:18s} {value:7.2f} ms{ratio}")
    return figures


async def run(backends: list[str], requests: int) -> None:
    if "sqlite" in backends:
        with tempfile.TemporaryDirectory() as folder:
            url = f"sqlite+aiosqlite:///{Path(folder) / 'bench.db'}"
            await _one(url, "SQLite", requests)
    if "postgres" in backends:
        async with throwaway_postgres("agora_bench_web") as url:
            await _one(url, "PostgreSQL", requests)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--backend", choices=["all", "sqlite", "postgres"], default="all")
    args = parser.parse_args()
    configure_logging("WARNING")
    backends = ["sqlite", "postgres"] if args.backend == "all" else [args.backend]
    asyncio.run(run(backends, args.requests))


if __name__ == "__main__":
    main()
