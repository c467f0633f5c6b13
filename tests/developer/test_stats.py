"""Developer stats count failures and show what the agent's /status said."""

from __future__ import annotations

import httpx2
from fastapi import FastAPI
from starlette.responses import JSONResponse

from agora.agents.worker import check_availability
from agora.kit.money import to_base
from agora.sandbox.protocol import AgentJob, Step
from tests.conftest import MakeUser, TestUser
from tests.developer.conftest import submission
from tests.jobs.helpers import dispatcher, echo
from tests.support.agents import LoopbackAgents


def _fail_on_boom(job: AgentJob) -> Step:
    if "boom" in str(job.input_data.get("text", "")):
        return Step("failed", result="cannot summarise 'boom'")
    return Step("completed", result="ok")


async def test_failures_refunds_and_last_errors(
    client: httpx2.AsyncClient,
    app: FastAPI,
    agents_server: LoopbackAgents,
    make_user: MakeUser,
    admin: TestUser,
) -> None:
    developer = await make_user()
    buyer = await make_user(credits=to_base(100))
    url = agents_server.serve(echo(step=_fail_on_boom))
    created = await client.post(
        "/v1/developer/agents", json=submission(url, price=1), headers=developer.bearer_headers
    )
    agent_id = created.json()["data"]["id"]
    await client.post(f"/v1/admin/agents/{agent_id}/approve", headers=admin.bearer_headers)

    for text in ("one", "boom", "two", "boom again"):
        hired = await client.post(
            f"/v1/agents/{agent_id}/jobs",
            json={"inputData": {"text": text}},
            headers=buyer.key_headers,
        )
        assert hired.status_code in (200, 201), hired.text
    await dispatcher(app).run_until_idle(10)

    stats = await client.get(
        f"/v1/developer/agents/{agent_id}/stats", headers=developer.bearer_headers
    )
    data = stats.json()["data"]
    assert data["jobs"] == {"total": 4, "completed": 2, "failed": 2, "cancelled": 0, "active": 0}
    assert data["failureRate"] == 0.5
    assert data["creditsEarned"] == 2  # two completed jobs at 1 credit; failures were refunded
    assert [e["error"] for e in data["lastErrors"]] == ["cannot summarise 'boom'"] * 2
    assert all(e["agentJobStatus"] == "failed" for e in data["lastErrors"])


async def test_availability_history_records_periodic_checks(
    client: httpx2.AsyncClient,
    app: FastAPI,
    agents_server: LoopbackAgents,
    make_user: MakeUser,
    admin: TestUser,
) -> None:
    developer = await make_user()
    url = agents_server.serve(echo())
    created = await client.post(
        "/v1/developer/agents", json=submission(url), headers=developer.bearer_headers
    )
    agent_id = created.json()["data"]["id"]
    await client.post(f"/v1/admin/agents/{agent_id}/approve", headers=admin.bearer_headers)
    await check_availability(app.state.db, app.state.agent_client, app.state.settings)
    down = JSONResponse({"detail": "maintenance"}, status_code=503)  # a Response is an ASGI app
    agents_server.host.mount(url.rsplit("/", 1)[1], down)
    await check_availability(app.state.db, app.state.agent_client, app.state.settings)

    stats = await client.get(
        f"/v1/developer/agents/{agent_id}/stats", headers=developer.bearer_headers
    )
    checks = stats.json()["data"]["availability"]["checks"]
    assert [(c["kind"], c["available"]) for c in checks] == [
        ("periodic", False),
        ("periodic", True),
        ("review", True),
        ("submit", True),
    ]
    assert checks[0]["message"]
    assert stats.json()["data"]["availability"]["uptime"] == 0.75
