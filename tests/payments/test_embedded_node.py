"""`agora serve` with the payment node in-process: the paid demo agent (Reviewer) is a real
Masumi seller on it, and Agora buys from it (real processes, real HTTP)."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx2
import pytest

from tests.support.server import agora_env, free_port


@pytest.mark.process
def test_the_paid_demo_agent_sells_through_the_embedded_payment_node(tmp_path: Path) -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = agora_env(
        tmp_path,
        AGORA_STATUS_POLL_MAX_SECONDS="0.2",
        AGORA_PAYMENT_BACKEND="masumi",
        AGORA_PAYMENT_NODE_EMBEDDED="true",
        AGORA_PUBLIC_URL=base,
        # The strict default policy: the node and the demo agents are reached in-process
        # (kit/outbound "in-process routes"), not through a loopback exemption.
        AGORA_OUTBOUND_ALLOW="",
    )
    process = subprocess.Popen(
        [sys.executable, "-m", "agora.cli.main", "serve", "--port", str(port)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
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
        reviewer_id = agents[1]
        with httpx2.Client(base_url=base, headers={"x-api-key": key}, timeout=10) as http:
            for _ in range(100):
                try:
                    http.get("/healthz")
                    break
                except httpx2.TransportError:
                    time.sleep(0.1)

            def wait(job_id: str, want: str) -> dict[str, Any]:
                deadline = time.monotonic() + 20
                while True:
                    data: dict[str, Any] = http.get(f"/v1/jobs/{job_id}").json()["data"]
                    if data["status"] == want or time.monotonic() > deadline:
                        return data
                    time.sleep(0.05)

            paid = http.post(f"/v1/agents/{reviewer_id}/jobs", json={"inputData": {"text": "a b"}})
            assert paid.status_code == 201, paid.text
            job_id = paid.json()["data"]["id"]
            asking = wait(job_id, "INPUT_REQUIRED")
            assert asking["status"] == "INPUT_REQUIRED", asking
            assert asking["onChainStatus"] == "FundsLocked"
            answer = http.post(f"/v1/jobs/{job_id}/inputs", json={"inputData": {"approve": True}})
            assert answer.status_code == 200, answer.text
            done = wait(job_id, "COMPLETED")
            assert done["status"] == "COMPLETED", done
            assert done["verified"] is True
            assert done["onChainStatus"] == "ResultSubmitted"
            assert done["jobStatusSettled"] is False  # the seller is paid after unlockTime
    finally:
        process.terminate()
        process.wait(timeout=10)
        if process.stdout is not None:
            process.stdout.close()
