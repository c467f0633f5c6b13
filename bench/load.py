"""Load: Agora and a lean reference (bench/reference_app.py) answering the same requests from the
same database, one after the other, measured with wrk on loopback; req/s, p50 and p99 of each and
the ratios Agora/reference, on PostgreSQL (directly, then through PgBouncer in transaction mode:
Debian's ``pgbouncer``, the reference still direct) and on SQLite.

    make load                                        # every database, 6 s per case, 16 connections
    .venv/bin/python -m bench.load --database sqlite --duration 5 --connections 16
    .venv/bin/python -m bench.load --agora-only --keep-running 60   # e.g. to attach py-spy
    .venv/bin/python -m bench.load --database postgres --case creation  # one case

Needs ``wrk`` (``apt-get install wrk``). Only 127.0.0.1 is targeted; every run is bounded by
``--duration``. Agora runs as in production: one uvicorn process (``--factory``), INFO access logs
as JSON lines (to a file), metrics and request ids on. Rate limits are off (they would measure the
limiter, not the service) and the dispatcher runs elsewhere (``AGORA_RUN_DISPATCHER=false``: an
API process, with workers apart), so created jobs stay PENDING, their credits held.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import textwrap
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx2
from sqlalchemy import select
from tests.support.pgbouncer import pgbouncer, through
from tests.support.server import PYTHON, create_user, free_port, run_cli

from agora.kit.db import Database
from agora.kit.ids import uuid7
from agora.kit.timeutil import utcnow
from agora.models import (
    Agent,
    AgentDailyCompletions,
    Conversation,
    Coworker,
    CoworkerUsage,
    CoworkerWorkspace,
    Job,
    Notification,
    Project,
    StoredFile,
    Task,
    TaskEvent,
)
from agora.models.statuses import TaskActorType
from bench.common import PG_ADMIN, admin_execute, server_env


@dataclass
class Scenario:
    name: str
    method: str
    path: str
    headers: dict[str, str]
    body: str | None = None


@dataclass
class Figures:
    requests_per_second: float
    p50_ms: float
    p99_ms: float
    errors: int
    cpu_ms: float = 0.0  # the server process's CPU time (user + system) per request


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (Linux /proc). On a shared machine CPU per
    request hardly moves with the neighbours' load, unlike req/s and latencies."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _ms(value: str) -> float:
    number, unit = re.fullmatch(r"([\d.]+)(us|ms|s)", value.strip()).groups()  # type: ignore[union-attr]
    return float(number) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[unit]


def run_wrk(
    base: str, scenario: Scenario, args: argparse.Namespace, workdir: Path, pid: int
) -> Figures:
    script = workdir / f"scenario-{abs(hash(scenario.name))}.lua"
    headers = "\n".join(f'wrk.headers["{k}"] = "{v}"' for k, v in {**scenario.headers}.items())
    body = f"wrk.body = {json.dumps(scenario.body)}" if scenario.body else ""
    script.write_text(
        textwrap.dedent(
            f"""
            wrk.method = "{scenario.method}"
            {headers}
            {body}
            done = function(summary, latency, requests)
              io.write(string.format("NON2XX %d\\n", summary.errors.status))
            end
            """
        )
    )
    cpu_before = cpu_seconds(pid)
    result = subprocess.run(
        [
            "wrk",
            f"-t{args.threads}",
            f"-c{args.connections}",
            f"-d{args.duration}s",
            "--latency",
            "-s",
            str(script),
            base + scenario.path,
        ],
        capture_output=True,
        text=True,
        timeout=args.duration + 60,
        check=True,
    )
    cpu = cpu_seconds(pid) - cpu_before
    out = result.stdout
    requests = int(re.search(r"(\d+) requests in", out).group(1))  # type: ignore[union-attr]
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))  # type: ignore[union-attr]
    p50 = _ms(re.search(r"\s50%\s+(\S+)", out).group(1))  # type: ignore[union-attr]
    p99 = _ms(re.search(r"\s99%\s+(\S+)", out).group(1))  # type: ignore[union-attr]
    errors = int(re.search(r"NON2XX (\d+)", out).group(1))  # type: ignore[union-attr]
    return Figures(rps, p50, p99, errors, 1000 * cpu / max(1, requests))


@contextmanager
def server(env: dict[str, str], app: str, port: int, log: Path) -> Iterator[tuple[str, int]]:
    """``uvicorn --factory app`` on 127.0.0.1:port until it stops (120 s to become healthy):
    its base URL and process id."""
    command = [PYTHON, "-m", "uvicorn", "--factory", app, "--host", "127.0.0.1"]
    command += ["--port", str(port), "--no-access-log", "--log-level", "warning"]
    with log.open("ab") as out:
        process = subprocess.Popen(command, env=env, stdout=out, stderr=out)
        base = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 120  # a loaded machine
            while True:
                if process.poll() is not None:
                    raise SystemExit(f"{app} exited; see {log}: {log.read_text()[-2000:]}")
                try:
                    if httpx2.get(f"{base}/healthz", timeout=1).status_code == 200:
                        break
                except httpx2.TransportError:
                    pass
                if time.monotonic() > deadline:
                    raise SystemExit(f"{app} did not become healthy within 120 s")
                time.sleep(0.1)
            yield base, process.pid
        finally:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=10)


async def copy_agent(url: str, agent_id: str, copies: int) -> None:
    """Fill the catalogue: ``copies`` verified copies of the registered agent (new ids)."""
    db = Database(url)
    try:
        async with db.transaction() as session:
            agent = await session.scalar(select(Agent).where(Agent.id == uuid.UUID(agent_id)))
            assert agent is not None
            columns = [c.key for c in Agent.__table__.columns if c.key != "id"]
            for i in range(copies):
                values = {c: getattr(agent, c) for c in columns}
                values["name"] = f"{agent.name} {i}"
                session.add(Agent(id=uuid7(), **values))
    finally:
        await db.dispose()


async def seed_lists(url: str, job_ids: list[str]) -> tuple[str, str]:
    """Data that looks like use, for the lists: 60 tasks (three events each, by the user and by a
    coworker; every third with two completed jobs, every fourth with coworker usage; half in one
    project, the rest over five), 6 projects, 20 conversations; the seeded jobs, tasks and
    conversations interleaved in time, so the feed's first page mixes the three kinds. Returns
    the project that holds 30 tasks and the coworker the tasks are assigned to."""
    db = Database(url)
    now = utcnow()
    try:
        async with db.transaction() as session:
            ids = [uuid.UUID(j) for j in job_ids]
            jobs = list(await session.scalars(select(Job).where(Job.id.in_(ids))))
            first = jobs[0]
            workspace_id, user_id, agent_id = first.workspace_id, first.user_id, first.agent_id
            coworker = Coworker(
                owner_user_id=user_id, slug=f"scribe-{uuid.uuid4().hex[:6]}", name="Scribe"
            )
            session.add(coworker)
            await session.flush()
            session.add(CoworkerWorkspace(coworker_id=coworker.id, workspace_id=workspace_id))
            projects = [
                Project(workspace_id=workspace_id, name=f"Project {i}", created_by=user_id)
                for i in range(6)
            ]
            session.add_all(projects)
            await session.flush()
            for i, job in enumerate(sorted(jobs, key=lambda j: j.id)):
                job.updated_at = now - timedelta(seconds=3 * (60 - i))
            for i in range(60):
                when = now - timedelta(seconds=3 * (60 - i) - 1)
                task = Task(
                    workspace_id=workspace_id,
                    creator_id=user_id,
                    name=f"Task {i}",
                    description="Write the quarterly report",
                    project_id=projects[0].id if i % 2 == 0 else projects[1 + i % 5].id,
                    coworker_id=coworker.id,
                    created_at=when,
                    updated_at=when,
                )
                session.add(task)
                await session.flush()
                session.add_all(
                    [
                        TaskEvent(
                            task_id=task.id,
                            comment=f"Please do {i}",
                            actor_type=TaskActorType.USER,
                            actor_user_id=user_id,
                            created_at=when,
                        ),
                        TaskEvent(
                            task_id=task.id,
                            status="RUNNING",
                            actor_type=TaskActorType.COWORKER,
                            actor_coworker_id=coworker.id,
                            created_at=when + timedelta(milliseconds=1),
                        ),
                        TaskEvent(
                            task_id=task.id,
                            comment="Looks good",
                            actor_type=TaskActorType.USER,
                            actor_user_id=user_id,
                            created_at=when + timedelta(milliseconds=2),
                        ),
                    ]
                )
                if i % 3 == 0:
                    for n in range(2):
                        session.add(
                            Job(
                                workspace_id=workspace_id,
                                user_id=user_id,
                                agent_id=agent_id,
                                task_id=task.id,
                                name=f"Job {i}.{n}",
                                identifier_from_purchaser=uuid.uuid4().hex[:16],
                                status="COMPLETED",
                                input_data={"text": f"task {i}"},
                                result=f"Done: see https://example.com/report-{i}-{n}.pdf",
                                completed_at=when,
                                price=1_000_000,
                                created_at=when,
                                updated_at=when - timedelta(days=1),
                            )
                        )
                if i % 4 == 0:
                    session.add(
                        CoworkerUsage(
                            coworker_id=coworker.id,
                            user_id=user_id,
                            workspace_id=workspace_id,
                            task_id=task.id,
                            idempotency_key=f"usage-{i}",
                            credits=500_000,
                            request_hash="0" * 64,
                        )
                    )
            for i in range(20):
                when = now - timedelta(seconds=9 * (20 - i) - 2)
                session.add(
                    Conversation(
                        workspace_id=workspace_id,
                        user_id=user_id,
                        title=f"Chat {i}",
                        created_at=when,
                        updated_at=when,
                    )
                )
            await seed_more(session, jobs, now)
            return str(projects[0].id), str(coworker.id)
    finally:
        await db.dispose()


async def seed_more(session: Any, jobs: list[Job], now: Any) -> None:
    """The newer lists: the person's inbox (60 notifications of the jobs' kinds, a third read),
    the workspace's files (60 output files of the jobs: most stored, some too large), and the
    catalogue's ratings and completions (every agent rated and completing jobs differently, so
    the rating and popularity orders differ from registration)."""
    first = jobs[0]
    kinds = ("job.completed", "job.failed", "job.input_required")
    for i in range(60):
        job = jobs[i % len(jobs)]
        when = now - timedelta(seconds=60 - i)
        session.add(
            Notification(
                user_id=first.user_id,
                kind=kinds[i % 3],
                subject_ref=f"job:{job.id}",
                title=f"Your job “{job.name}” changed",
                data={"jobId": str(job.id), "name": job.name},
                read_at=when if i % 3 == 0 else None,
                created_at=when,
            )
        )
        session.add(
            StoredFile(
                workspace_id=first.workspace_id,
                user_id=first.user_id,
                job_id=job.id,
                origin="output",
                name=f"report-{i}.pdf",
                mime_type="application/pdf" if i % 5 else None,
                size=10_000 + i if i % 5 else None,
                sha256=f"{i:064x}" if i % 5 else None,
                storage_key=f"files/{uuid.uuid4().hex}" if i % 5 else None,
                state="stored" if i % 5 else "too_large",
                source_url=f"https://example.com/report-{i}.pdf",
                created_at=when,
            )
        )
    agents = list(await session.scalars(select(Agent).order_by(Agent.id)))
    for i, agent in enumerate(agents):
        agent.rating_count = (i * 7) % 23
        agent.rating_sum = agent.rating_count * (1 + (i * 3) % 5)
        for day in range(0, 40, 3 + i % 4):
            session.add(
                AgentDailyCompletions(
                    agent_id=agent.id,
                    day=(now - timedelta(days=day)).date(),
                    count=1 + (i * day) % 9,
                )
            )


def seed(base: str, env: dict[str, str], url: str, port: int) -> list[Scenario]:
    user = create_user(env, f"load-{uuid.uuid4().hex[:6]}@example.com", credits="1000000")
    key = user["apiKey"]
    agent = json.loads(
        run_cli(
            env,
            *("agents", "register", f"http://127.0.0.1:{port}/demo-agents/echo"),
            *("--name", "Load echo", "--price", "1", "--verify", "--json"),
        )
    )["agentId"]
    asyncio.run(copy_agent(url, agent, 24))
    keyh = {"x-api-key": key}
    bearer = {"Authorization": f"Bearer {key}"}
    job_ids = []
    with httpx2.Client(base_url=base, timeout=10) as client:
        for i in range(50):
            created = client.post(
                f"/v1/agents/{agent}/jobs",
                json={"inputData": {"text": f"seed {i}"}},
                headers=keyh,
            )
            created.raise_for_status()
            job_ids.append(created.json()["data"]["id"])
    project, coworker = asyncio.run(seed_lists(url, job_ids))
    # The coworker's runtime reads the events of its tasks with its own key (whitelisted by
    # the operator, issued by its owner).
    run_cli(env, "coworkers", "whitelist", coworker, "--json")
    with httpx2.Client(base_url=base, timeout=10) as client:
        issued = client.post(
            f"/v1/coworkers/{coworker}/api-keys", json={"name": "runtime"}, headers=bearer
        )
        issued.raise_for_status()
    coworker_key = {"Authorization": f"Bearer {issued.json()['data']['token']}"}
    json_headers = {**keyh, "Content-Type": "application/json"}
    return [
        Scenario("healthz (bare route)", "GET", "/healthz", {}),
        Scenario("job by id", "GET", f"/v1/jobs/{job_ids[0]}", keyh),
        Scenario("history first page", "GET", "/v1/history?limit=20", bearer),
        Scenario("task listing", "GET", "/v1/tasks?limit=20", bearer),
        Scenario("task listing page 2", "GET", "/v1/tasks?limit=20&page=2", bearer),
        Scenario("a project's tasks", "GET", f"/v1/tasks?limit=20&projectId={project}", bearer),
        Scenario("project listing", "GET", "/v1/projects?limit=20", bearer),
        Scenario("job listing", "GET", "/v1/jobs?limit=20", keyh),
        Scenario("agent listing (cursor)", "GET", "/v1/agents?limit=20", bearer),
        Scenario("agents by rating", "GET", "/v1/agents?limit=20&sort=rating", bearer),
        Scenario("agents by popularity", "GET", "/v1/agents?limit=20&sort=popularity", bearer),
        Scenario("notifications inbox", "GET", "/v1/notifications?limit=20", keyh),
        Scenario("files listing", "GET", "/v1/files?limit=20", keyh),
        Scenario("coworker events", "GET", "/v1/coworkers/me/events?limit=20", coworker_key),
        Scenario("users/me", "GET", "/v1/users/me", keyh),
        Scenario(
            "job creation",
            "POST",
            f"/v1/agents/{agent}/jobs",
            json_headers,
            json.dumps({"inputData": {"text": "load"}}),
        ),
    ]


def check_same_answers(agora: str, reference: str, scenarios: list[Scenario]) -> None:
    """The reference must answer what Agora answers (same status, same keys), or it measures
    something else."""
    with httpx2.Client(timeout=10) as client:
        for s in scenarios:
            if s.method != "GET":
                continue
            a = client.get(agora + s.path, headers=s.headers)
            r = client.get(reference + s.path, headers=s.headers)
            if a.status_code != 200 or r.status_code != 200:
                raise SystemExit(f"{s.name}: Agora {a.status_code}, reference {r.status_code}")
            if sorted(a.json()) != sorted(r.json()):
                raise SystemExit(
                    f"{s.name}: envelopes differ: {sorted(a.json())} {sorted(r.json())}"
                )
            if _ids(a.json()) != _ids(r.json()):
                raise SystemExit(f"{s.name}: items differ: {_ids(a.json())} {_ids(r.json())}")


def _ids(body: dict[str, Any]) -> list[str]:
    """The ids a list answers (its items in order), or the one item's id."""
    data = body.get("data", body.get("items"))
    if isinstance(data, dict) and isinstance(data.get("items"), list):  # the inbox's page
        data = data["items"]
    if isinstance(data, list):
        return [str(item["id"]) for item in data]
    return [str(data["id"])] if isinstance(data, dict) and "id" in data else []


def measure(database: str, args: argparse.Namespace) -> list[tuple[Scenario, Figures, Figures]]:
    workdir = Path(tempfile.mkdtemp(prefix="agora-load-"))
    extra = {
        "AGORA_DEMO": "true",
        "AGORA_LOG_LEVEL": "INFO",
        "AGORA_LOG_JSON": "true",
        "AGORA_RUN_DISPATCHER": "false",
        "AGORA_AVAILABILITY_CHECK_SECONDS": "0",
    }
    name = f"agora_load_{uuid.uuid4().hex[:10]}"
    bouncer = contextlib.ExitStack()
    if database in ("postgres", "pgbouncer"):
        asyncio.run(admin_execute(f'CREATE DATABASE "{name}"'))
        url = PG_ADMIN.rsplit("/", 1)[0] + f"/{name}"
        extra["AGORA_DATABASE_URL"] = url
        ref_url = url.replace("postgresql+asyncpg://", "postgresql://", 1)
        if database == "pgbouncer":  # Agora through PgBouncer; seeding and the reference direct
            bouncer_port = bouncer.enter_context(pgbouncer(PG_ADMIN))
            extra["AGORA_DATABASE_URL"] = through(url, bouncer_port)
            extra["AGORA_DATABASE_PGBOUNCER"] = "true"
            extra["AGORA_DATABASE_LISTEN_URL"] = url
    else:
        url = f"sqlite+aiosqlite:///{workdir / 'agora.db'}"
        ref_url = f"sqlite:///{workdir / 'agora.db'}"
    env = server_env(workdir, **extra)
    env["AGORA_REF_DATABASE_URL"] = ref_url
    env["AGORA_REF_SECRET_KEY"] = env["AGORA_SECRET_KEY"]
    log = workdir / "server.log"
    results: list[tuple[Scenario, Figures, Figures]] = []
    try:
        run_cli(env, "migrate")
        port, ref_port = free_port(), free_port()
        with server(env, "agora.app:app_from_env", port, log) as (base, pid):
            wanted = [w for w in args.case.split(",") if w] or [""]
            scenarios = [s for s in seed(base, env, url, port) if any(w in s.name for w in wanted)]
            if args.keep_running:
                print(f"Agora at {base} (pid {pid}); scenarios:", file=sys.stderr)
                for s in scenarios:
                    print(f"  {s.method} {base}{s.path} {s.headers}", file=sys.stderr)
                time.sleep(args.keep_running)
            with server(env, "bench.reference_app:create_app", ref_port, log) as (ref, _):
                check_same_answers(base, ref, scenarios)
            agora = [run_wrk(base, s, args, workdir, pid) for s in scenarios]
        if args.agora_only:
            return [(s, a, a) for s, a in zip(scenarios, agora, strict=True)]
        with server(env, "bench.reference_app:create_app", ref_port, log) as (ref, ref_pid):
            reference = [run_wrk(ref, s, args, workdir, ref_pid) for s in scenarios]
        results = list(zip(scenarios, agora, reference, strict=True))
    finally:
        bouncer.close()
        if database in ("postgres", "pgbouncer"):
            asyncio.run(admin_execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        shutil.rmtree(workdir, ignore_errors=True)
    return results


# --case for every list (and nothing else)
LISTS = "listing,history,tasks,agents by,inbox,coworker events"
TARGETS = {"healthz (bare route)": 0.8, "job creation": 0.5}


def report(
    database: str, args: argparse.Namespace, results: list[tuple[Scenario, Figures, Figures]]
) -> None:
    print(
        f"\nload: {database}, {args.connections} connections, {args.threads} wrk threads, "
        f"{args.duration} s per case, one uvicorn process each, {os.cpu_count()} cores "
        "(shared: read the ratios, not the absolute figures)\n"
    )
    print(
        f"{'case':<24}{'Agora r/s':>10}{'p50':>8}{'p99':>8}{'err':>5}"
        f"{'ref r/s':>10}{'p50':>8}{'p99':>8}{'err':>5}"
        f"{'ratio':>7}{'target':>7}{'p99/p50':>8}{'cpu ms':>8}{'ref cpu':>8}{'cpu ratio':>10}"
    )
    for s, a, r in results:
        ratio = a.requests_per_second / r.requests_per_second
        target = TARGETS.get(s.name, 0.6)
        print(
            f"{s.name:<24}{a.requests_per_second:>10.0f}{a.p50_ms:>8.2f}{a.p99_ms:>8.2f}"
            f"{a.errors:>5}{r.requests_per_second:>10.0f}{r.p50_ms:>8.2f}{r.p99_ms:>8.2f}"
            f"{r.errors:>5}{ratio:>7.2f}{target:>7.1f}{a.p99_ms / a.p50_ms:>8.1f}"
            f"{a.cpu_ms:>8.2f}{r.cpu_ms:>8.2f}{r.cpu_ms / max(a.cpu_ms, 1e-9):>10.2f}"
        )
    print(
        "(p50/p99 in ms; ratio = Agora req/s ÷ reference req/s; p99/p50 is Agora's; cpu ms = "
        "the server's CPU time per request; cpu ratio = reference cpu ÷ Agora cpu, the ratio "
        "req/s would have on idle cores)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--database", choices=["postgres", "pgbouncer", "sqlite", "all"], default="all"
    )
    parser.add_argument("--duration", type=int, default=6)
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--agora-only", action="store_true", help="skip the reference runs")
    parser.add_argument(
        "--case",
        default="",
        help="only the cases whose name contains this, or one of these comma-separated "
        f"words (e.g. creation; the lists: {LISTS})",
    )
    parser.add_argument(
        "--keep-running", type=int, default=0, help="seconds to keep Agora up before measuring"
    )
    args = parser.parse_args()
    if shutil.which("wrk") is None:
        sys.exit("wrk is not installed: apt-get install wrk")
    if not 1 <= args.duration <= 60:
        sys.exit("--duration: 1 to 60 seconds")
    databases = ["postgres", "pgbouncer", "sqlite"] if args.database == "all" else [args.database]
    for database in databases:
        report(database, args, measure(database, args))


if __name__ == "__main__":
    main()
