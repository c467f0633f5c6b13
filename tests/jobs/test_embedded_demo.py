"""The embedded `agora serve`: demo agents, in-process dispatcher, real HTTP end to end."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx2
import pytest

from tests.support.server import agora_env, create_user, free_port, run_cli

pytestmark = pytest.mark.process  # a real server process: make prove


def _wait_for(
    check: Callable[[], dict[str, Any]], want: str, seconds: float = 10
) -> dict[str, Any]:
    deadline = time.monotonic() + seconds
    while True:
        data = check()
        if data["status"] == want or time.monotonic() > deadline:
            return data
        time.sleep(0.05)


def test_demo_jobs_run_to_the_end_in_the_embedded_server(tmp_path: Path) -> None:
    # The demo works under the default outbound policy: its agents are served in-process.
    env = agora_env(tmp_path, AGORA_STATUS_POLL_MAX_SECONDS="0.2", AGORA_OUTBOUND_ALLOW="")
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "agora.cli.main", "serve", "--port", str(port)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        key, agents = None, None
        deadline = time.monotonic() + 30
        assert process.stdout is not None
        while (key is None or agents is None) and time.monotonic() < deadline:
            line = process.stdout.readline()
            if "Demo API key" in line:
                key = line.rsplit(" ", 1)[-1].strip()
            if "Demo agents:" in line:
                agents = line.split(":", 1)[1].strip().split(", ")
        assert key and agents, "serve did not print the demo key and agents"
        echo_id, reviewer_id = agents
        headers = {"x-api-key": key}
        with httpx2.Client(base_url=base, headers=headers, timeout=10) as http:
            for _ in range(100):
                try:
                    http.get("/healthz")
                    break
                except httpx2.TransportError:
                    time.sleep(0.1)

            def read(job_id: str) -> dict[str, Any]:
                data: dict[str, Any] = http.get(f"/v1/jobs/{job_id}").json()["data"]
                return data

            started = time.monotonic()
            free = http.post(f"/v1/agents/{echo_id}/jobs", json={"inputData": {"text": "hi"}})
            assert free.status_code == 201, free.text
            done = _wait_for(lambda: read(free.json()["data"]["id"]), "COMPLETED")
            assert done["status"] == "COMPLETED"
            assert done["result"] == "HI"
            assert time.monotonic() - started < 15  # generous: CI machines are shared

            before = http.get("/v1/credits").json()["data"]["balance"]
            paid = http.post(f"/v1/agents/{reviewer_id}/jobs", json={"inputData": {"text": "a b"}})
            assert paid.status_code == 201, paid.text
            paid_id = paid.json()["data"]["id"]
            price = paid.json()["data"]["price"]["credits"]
            assert _wait_for(lambda: read(paid_id), "INPUT_REQUIRED")["status"] == "INPUT_REQUIRED"
            answer = http.post(f"/v1/jobs/{paid_id}/inputs", json={"inputData": {"approve": True}})
            assert answer.status_code == 200
            finished = _wait_for(lambda: read(paid_id), "COMPLETED")
            assert finished["status"] == "COMPLETED"
            assert finished["jobStatusSettled"] is True
            credits = http.get("/v1/credits").json()["data"]
            assert credits["held"] == 0
            assert round(before - credits["balance"], 6) == price
            assert http.get("/readyz").json()["checks"]["dispatcher"] == "ok"
            # With the demo the first availability round comes soon after start: the gallery
            # shows both demo agents as available, not "not checked yet" for minutes.
            deadline = time.monotonic() + 30
            while http.get("/agents").text.count("availability-available") < 2:
                assert time.monotonic() < deadline, "the demo agents were never checked"
                time.sleep(0.2)
    finally:
        process.terminate()
        process.wait(timeout=15)


def test_credits_grant_command(tmp_path: Path) -> None:
    env = agora_env(tmp_path, AGORA_DEMO="false")
    user = create_user(env, "rich@example.com", credits="1.5")
    out = json.loads(
        run_cli(
            env,
            "credits",
            "grant",
            "--user",
            "rich@example.com",
            "--amount",
            "2",
            "--reason",
            "test",
            "--json",
        )
    )
    assert out == {"workspaceId": user["workspaceId"], "granted": 2, "balance": 3.5}
