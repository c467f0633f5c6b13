"""`agora worker` processes: a worker killed (SIGKILL) while holding a job; another finishes it
and the user is charged once."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx2
import pytest

from tests.jobs.helpers import echo
from tests.support.agents import LoopbackAgents
from tests.support.server import agora_env, create_user, run_cli, running_server

pytestmark = pytest.mark.process  # real worker processes: make prove


@contextmanager
def worker(env: dict[str, str]) -> Iterator[subprocess.Popen[str]]:
    process = subprocess.Popen(
        [sys.executable, "-m", "agora.cli.main", "worker", "--concurrency", "4"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert process.stdout is not None
        assert "running" in process.stdout.readline()  # started and listening for jobs
        yield process
    finally:
        if process.poll() is None:
            process.terminate()
        process.wait(timeout=15)


def _job(http: httpx2.Client, job_id: str) -> dict[str, Any]:
    data: dict[str, Any] = http.get(f"/v1/jobs/{job_id}").json()["data"]
    return data


def test_killed_worker_job_is_finished_by_another_and_charged_once(
    tmp_path: Path, agents_server: LoopbackAgents
) -> None:
    behaviour = echo(fault="status_hang", hang_seconds=5.0)
    url = agents_server.serve(behaviour)
    env = agora_env(
        tmp_path,
        AGORA_DEMO="false",
        AGORA_RUN_DISPATCHER="false",
        AGORA_LEASE_SECONDS="1.5",
        AGORA_AGENT_TIMEOUT_SECONDS="20",
        AGORA_STATUS_POLL_INITIAL_SECONDS="0.01",
    )
    user = create_user(env, "w@example.com", credits="10")
    agent = json.loads(
        run_cli(
            env, "agents", "register", url, "--name", "Slow", "--price", "1", "--verify", "--json"
        )
    )
    with (
        running_server(env) as base,
        httpx2.Client(base_url=base, headers={"x-api-key": user["apiKey"]}, timeout=10) as http,
    ):
        created = http.post(
            f"/v1/agents/{agent['agentId']}/jobs", json={"inputData": {"text": "x"}}
        )
        assert created.status_code == 201, created.text
        job_id = created.json()["data"]["id"]
        with worker(env) as doomed:
            deadline = time.monotonic() + 15
            while _job(http, job_id)["status"] != "RUNNING":
                assert time.monotonic() < deadline, "the first worker never started the job"
                time.sleep(0.05)
            time.sleep(0.3)  # now stuck in /status, holding the lease
            doomed.send_signal(signal.SIGKILL)
        behaviour.fault = None  # the agent recovers
        assert _job(http, job_id)["status"] == "RUNNING"
        with worker(env):
            deadline = time.monotonic() + 15
            while _job(http, job_id)["status"] != "COMPLETED":
                assert time.monotonic() < deadline, "the second worker did not finish the job"
                time.sleep(0.05)
        done = _job(http, job_id)
        assert done["result"] == "X"
        assert done["jobStatusSettled"] is True
        assert len(behaviour.started) == 1
        credits = http.get("/v1/credits").json()["data"]
        assert [e["kind"] for e in credits["entries"]] == ["capture", "hold", "grant"]
        assert (credits["balance"], credits["held"]) == (8.95, 0)
