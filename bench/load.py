"""Load: authenticated reads and job creation against one real server on loopback, next to the
same stack's floor (``/healthz``), reported as req/s and p50/p99 with ratios.

    make load                          # PostgreSQL (throwaway database), 10 s per scenario
    .venv/bin/python -m bench.load --database sqlite --duration 5 --connections 16

Needs ``wrk`` (``apt-get install wrk``). Only 127.0.0.1 is targeted; every run is bounded by
``--duration``. Rate limits are switched off for the server under test (they would measure the
limiter, not the service). The server runs its dispatcher in-process and the built-in demo
agents, so created jobs really run against the free echo agent.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import shutil
import subprocess
import sys
import tempfile
import textwrap
import uuid
from dataclasses import dataclass
from pathlib import Path

import httpx2
from tests.support.server import agora_env, create_user, free_port, run_cli, running_server

from bench.common import PG_ADMIN, admin_execute


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


def _ms(value: str) -> float:
    number, unit = re.fullmatch(r"([\d.]+)(us|ms|s)", value.strip()).groups()  # type: ignore[union-attr]
    return float(number) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[unit]


def run_wrk(base: str, scenario: Scenario, args: argparse.Namespace, workdir: Path) -> Figures:
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
    out = result.stdout
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))  # type: ignore[union-attr]
    p50 = _ms(re.search(r"\s50%\s+(\S+)", out).group(1))  # type: ignore[union-attr]
    p99 = _ms(re.search(r"\s99%\s+(\S+)", out).group(1))  # type: ignore[union-attr]
    errors = int(re.search(r"NON2XX (\d+)", out).group(1))  # type: ignore[union-attr]
    return Figures(rps, p50, p99, errors)


def seed(base: str, env: dict[str, str], port: int) -> tuple[list[Scenario], dict[str, str]]:
    user = create_user(env, f"load-{uuid.uuid4().hex[:6]}@example.com", credits="1000000")
    key = user["apiKey"]
    agent = json.loads(
        run_cli(
            env,
            *("agents", "register", f"http://127.0.0.1:{port}/demo-agents/echo"),
            *("--name", "Load echo", "--verify", "--json"),
        )
    )["agentId"]
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
    json_headers = {**keyh, "Content-Type": "application/json"}
    scenarios = [
        Scenario("floor (GET /healthz)", "GET", "/healthz", {}),
        Scenario("job by id", "GET", f"/v1/jobs/{job_ids[0]}", keyh),
        Scenario("history first page", "GET", "/v1/history", bearer),
        Scenario("cursor agent listing", "GET", "/v1/agents", bearer),
        Scenario(
            "job creation",
            "POST",
            f"/v1/agents/{agent}/jobs",
            json_headers,
            json.dumps({"inputData": {"text": "load"}}),
        ),
    ]
    return scenarios, {"agent": agent}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database", choices=["postgres", "sqlite"], default="postgres")
    parser.add_argument("--duration", type=int, default=10)
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    if shutil.which("wrk") is None:
        sys.exit("wrk is not installed: apt-get install wrk")

    workdir = Path(tempfile.mkdtemp(prefix="agora-load-"))
    extra = {"AGORA_DEMO": "true", "AGORA_LOG_LEVEL": "ERROR"}
    name = f"agora_load_{uuid.uuid4().hex[:10]}"
    if args.database == "postgres":
        asyncio.run(admin_execute(f'CREATE DATABASE "{name}"'))
        extra["AGORA_DATABASE_URL"] = PG_ADMIN.rsplit("/", 1)[0] + f"/{name}"
    env = agora_env(workdir, **extra)
    try:
        if args.database == "postgres":
            run_cli(env, "migrate")
        port = free_port()
        with running_server(env, port=port) as base:
            scenarios, _ = seed(base, env, port)
            results = [(s, run_wrk(base, s, args, workdir)) for s in scenarios]
    finally:
        if args.database == "postgres":
            asyncio.run(admin_execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        shutil.rmtree(workdir, ignore_errors=True)

    floor = results[0][1]
    print(
        f"\nload: {args.database}, {args.connections} connections, {args.threads} wrk threads, "
        f"{args.duration} s per scenario, one uvicorn process (2-core machine)\n"
    )
    print(
        f"{'scenario':<24}{'req/s':>10}{'p50 ms':>10}{'p99 ms':>10}{'errors':>8}"
        f"{'req/s÷floor':>13}{'p50÷floor':>11}"
    )
    for scenario, fig in results:
        print(
            f"{scenario.name:<24}{fig.requests_per_second:>10.0f}{fig.p50_ms:>10.2f}"
            f"{fig.p99_ms:>10.2f}{fig.errors:>8}"
            f"{fig.requests_per_second / floor.requests_per_second:>13.2f}"
            f"{fig.p50_ms / floor.p50_ms:>11.2f}"
        )


if __name__ == "__main__":
    main()
