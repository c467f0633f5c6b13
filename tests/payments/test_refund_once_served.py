"""A refund is asked once per job, ever (issue 43.3), with real concurrency: a served Agora
process (uvicorn, its own dispatcher) on SQLite and on PostgreSQL (a fresh database each), a
Masumi seller on the local payment node (loopback), one paid job COMPLETED with its refund window
open, then 20 parallel ``POST /v1/jobs/{id}/refund`` over TCP: exactly one 200, 19 x 409 (each told
that a refund is asked once per job), and once the dispute settles one refund entry in the
buyer's ledger and the balance back where it started."""

from __future__ import annotations

import asyncio
import json
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx2
import pytest

from agora.kit.outbound import OutboundPolicy
from agora.sandbox.seller import SellerConfig, build_seller_app
from tests.jobs.helpers import echo
from tests.payments.helpers import HOUR_MS, TOKEN, Node
from tests.production.conftest import postgres_env  # noqa: F401  (the fixture, by name)
from tests.support.agents import LoopbackAgents
from tests.support.server import agora_env, create_user, run_cli, running_server

pytestmark = pytest.mark.process  # a real server process: make prove
PARALLEL = 20
ASKED_ONCE = "a refund is asked once per job"


def _env(
    request: pytest.FixtureRequest, database: str, tmp_path: Path, node: Node
) -> dict[str, str]:
    base = (
        request.getfixturevalue("postgres_env")
        if database == "postgres"
        else agora_env(tmp_path, AGORA_DEMO="false")
    )
    return {
        **base,
        "AGORA_RUN_DISPATCHER": "true",  # the served process dispatches (and follows the node)
        "AGORA_PAYMENT_BACKEND": "masumi",
        "AGORA_MASUMI_PAYMENT_URL": node.url,
        "AGORA_MASUMI_PAYMENT_TOKEN": TOKEN,
        "AGORA_MASUMI_FOLLOW_SECONDS": "0.05",
        "AGORA_STATUS_POLL_INITIAL_SECONDS": "0.02",
        "AGORA_STATUS_POLL_MAX_SECONDS": "0.2",
    }


def _seller(agents_server: LoopbackAgents, node: Node) -> str:
    """A Masumi seller (echo) on the node, mounted on the loopback server: its URL."""
    seller = SellerConfig(
        node_url=node.url,
        token=TOKEN,
        agent_identifier=f"agent{uuid.uuid4().hex}",
        policy=OutboundPolicy.from_setting("127.0.0.0/8,::1/128"),
    )
    path = agents_server.host.mount(
        f"seller-{uuid.uuid4().hex[:8]}", build_seller_app(echo(), seller)
    )
    return f"{agents_server.base_url}{path}"


async def _until(
    http: httpx2.AsyncClient, job_id: str, check: Callable[[dict[str, Any]], bool], what: str
) -> dict[str, Any]:
    """Read the job over HTTP until ``check`` holds: bounded (20 s, 400 reads)."""
    deadline, current = time.monotonic() + 20, {}
    for _ in range(400):
        answer = await http.get(f"/v1/jobs/{job_id}")
        assert answer.status_code == 200, answer.text
        current = answer.json()["data"]
        if check(current) or time.monotonic() > deadline:
            break
        await asyncio.sleep(0.05)
    assert check(current), f"the job never got {what}: {current}"
    return current


async def _refunds(http: httpx2.AsyncClient, job_id: str) -> tuple[list[str], int]:
    """The job's refund entries in the buyer's ledger (``GET /v1/credits``) and the balance."""
    answer = await http.get("/v1/credits")
    assert answer.status_code == 200, answer.text
    data = answer.json()["data"]
    kinds = [e["kind"] for e in data["entries"] if e["jobId"] == job_id and e["kind"] == "refund"]
    return kinds, int(data["balance"])


@pytest.mark.parametrize("database", ["sqlite", "postgres"])
def test_twenty_parallel_refunds_over_tcp_are_accepted_once_and_refunded_once(
    request: pytest.FixtureRequest,
    database: str,
    tmp_path: Path,
    agents_server: LoopbackAgents,
    node: Node,
) -> None:
    started = time.monotonic()
    env = _env(request, database, tmp_path, node)  # PostgreSQL migrated; SQLite migrates itself
    buyer = create_user(env, f"buyer-{uuid.uuid4().hex[:8]}@example.com", credits="10")
    agent_id = json.loads(
        run_cli(
            env,
            "agents",
            "register",
            _seller(agents_server, node),
            "--name",
            "Paid Echo",
            "--price",
            "2",
            "--verify",
            "--json",
        )
    )["agentId"]
    with running_server(env, startup_seconds=60) as base:
        served = time.monotonic()
        asyncio.run(asyncio.wait_for(_refund_twenty(base, buyer["apiKey"], agent_id, node), 60))
    print(  # pytest -s shows it
        f"\n{database}: set up and served in {served - started:.1f} s, "
        f"job + 20 refunds + settlement in {time.monotonic() - served:.1f} s"
    )


async def _refund_twenty(base: str, key: str, agent_id: str, node: Node) -> None:
    async with httpx2.AsyncClient(base_url=base, headers={"x-api-key": key}, timeout=30) as http:
        start = (await _refunds(http, ""))[1]
        created = await http.post(f"/v1/agents/{agent_id}/jobs", json={"inputData": {"text": "hi"}})
        assert created.status_code == 201, created.text
        job_id = created.json()["data"]["id"]
        done = await _until(http, job_id, lambda j: j["status"] == "COMPLETED", "COMPLETED")
        assert done["onChainStatus"] == "ResultSubmitted"  # the refund window is open

        answers = await asyncio.gather(
            *(http.post(f"/v1/jobs/{job_id}/refund") for _ in range(PARALLEL))
        )
        statuses = sorted(a.status_code for a in answers)
        assert statuses == [200] + [409] * (PARALLEL - 1), statuses
        # Whether a loser read the job before the winner wrote (and lost the compare-and-set) or
        # after, it is told the same reason: a refund is asked once per job.
        refused = [a.json()["message"] for a in answers if a.status_code == 409]
        assert all(m.endswith(ASKED_ONCE) for m in refused), refused

        await _until(http, job_id, lambda j: j["onChainStatus"] == "Disputed", "Disputed")
        await node.advance(37 * HOUR_MS)  # past externalDisputeUnlockTime: the network decides
        settled = await _until(http, job_id, lambda j: bool(j["jobStatusSettled"]), "settled")
        assert settled["onChainStatus"] == "DisputedWithdrawn"
        refunds, balance = await _refunds(http, job_id)
        for _ in range(40):  # bounded: the refund entry is written with the settlement
            if refunds:
                break
            await asyncio.sleep(0.05)
            refunds, balance = await _refunds(http, job_id)
        assert refunds == ["refund"]
        assert balance == start
