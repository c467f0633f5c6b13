"""Agent answers that cannot be stored (a NUL or a lone surrogate in the result, an id or hash
longer than its column) fail the job at once, with a refund and an event that says why — never a
job stuck RUNNING that re-calls the agent until its deadline. Answers over 5 MiB are cut off while
streaming. Listings carry a bounded result preview; the job itself has the whole result."""

from __future__ import annotations

import uuid
from typing import Any

import httpx2
import pytest
from fastapi import FastAPI
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import Route

from agora.agents import service as agents
from agora.kit.money import to_base
from tests.conftest import MakeUser
from tests.jobs.helpers import create, dispatcher, echo, job, register
from tests.support.agents import LoopbackAgents

SCHEMA = b'{"input_data": [{"id": "text", "type": "string", "name": "Text"}]}'


class RawAgent:
    """A MIP-003 agent whose /start_job and /status answers are raw bytes (any JSON, even JSON
    Python's encoder would refuse to write), counting the calls it gets."""

    def __init__(self, start: bytes, status: bytes | None = None, big: bool = False) -> None:
        self.start, self.status, self.big = start, status, big
        self.calls: dict[str, int] = {}

    def app(self) -> Starlette:
        async def answer(request: Request) -> Response:
            name = request.url.path.rsplit("/", 1)[-1]
            self.calls[name] = self.calls.get(name, 0) + 1
            if name == "availability":
                return Response(b'{"status": "available"}', media_type="application/json")
            if name == "input_schema":
                return Response(SCHEMA, media_type="application/json")
            if name == "start_job":
                return Response(self.start, media_type="application/json")
            if self.big:
                return StreamingResponse(_six_mib(), media_type="application/json")
            return Response(self.status or b"{}", media_type="application/json")

        paths = ("availability", "input_schema", "start_job", "status")
        return Starlette(routes=[Route(f"/{p}", answer, methods=["GET", "POST"]) for p in paths])


async def _six_mib() -> Any:
    yield b'{"status": "completed", "result": "'
    for _ in range(96):
        yield b"x" * 65536
    yield b'"}'


async def register_raw(app: FastAPI, agents_server: LoopbackAgents, agent: RawAgent) -> str:
    path = agents_server.host.mount(f"raw-{uuid.uuid4().hex[:8]}", agent.app())
    probe = await agents.probe(app.state.agent_client, f"{agents_server.base_url}{path}")
    async with app.state.db.transaction() as session:
        registered = await agents.register_agent(
            session,
            app.state.settings,
            probe,
            name="Raw",
            price=1,
            verify=True,
        )
        return str(registered.id)


def _started(job_id: str = "j-1", input_hash: str | None = None) -> bytes:
    extra = f', "input_hash": "{input_hash}"' if input_hash else ""
    return f'{{"id": "{job_id}", "status": "running"{extra}}}'.encode()


CASES = {
    "nul-in-result": (_started(), b'{"status": "completed", "result": "a\\u0000b"}', "NUL"),
    "surrogate-in-result": (
        _started(),
        b'{"status": "completed", "result": "a\\ud800b"}',
        "surrogate",
    ),
    "surrogate-in-message": (
        _started(),
        b'{"status": "failed", "message": "x\\udfff"}',
        "surrogate",
    ),
    "long-job-id": (_started("j" * 600), None, "agent_job_id is longer than 500"),
    "long-hash": (_started(input_hash="h" * 100), None, "input_hash is longer than 64"),
    "nul-in-job-id": (b'{"id": "j\\u0000"}', None, "NUL"),
}


@pytest.mark.parametrize("case", sorted(CASES))
async def test_an_unstorable_answer_fails_the_job_at_once_with_a_refund(
    case: str,
    app: FastAPI,
    client: httpx2.AsyncClient,
    make_user: MakeUser,
    agents_server: LoopbackAgents,
) -> None:
    start, status, why = CASES[case]
    agent = RawAgent(start, status)
    agent_id = await register_raw(app, agents_server, agent)
    user = await make_user(credits=to_base(5))
    before = (await client.get("/v1/credits", headers=user.key_headers)).json()["data"]
    created = await create(client, user.key_headers, agent_id)
    assert created.status_code == 201, created.text
    job_id = created.json()["data"]["id"]
    await dispatcher(app).run_until_idle(5)
    failed = await job(client, user.key_headers, job_id)
    assert failed["status"] == "FAILED", failed
    assert "cannot be stored" in failed["error"] and why in failed["error"], failed["error"]
    assert failed["result"] is None
    after = (await client.get("/v1/credits", headers=user.key_headers)).json()["data"]
    assert (after["balance"], after["held"]) == (before["balance"], before["held"]), after
    assert after["entries"][0]["kind"] == "refund"  # the hold was refunded in full
    events = (await client.get(f"/v1/jobs/{job_id}/events", headers=user.key_headers)).json()
    last = events["data"][-1]
    assert last["toStatus"] == "FAILED"
    assert "cannot be stored" in last["detail"]["reason"]
    assert agent.calls.get("status", 0) <= 1  # failed at once, not re-polled until the deadline


async def test_an_answer_over_5_mib_is_cut_off(
    app: FastAPI, client: httpx2.AsyncClient, make_user: MakeUser, agents_server: LoopbackAgents
) -> None:
    agent = RawAgent(_started(), big=True)
    agent_id = await register_raw(app, agents_server, agent)
    user = await make_user(credits=to_base(5))
    job_id = (await create(client, user.key_headers, agent_id)).json()["data"]["id"]
    await dispatcher(app).run_until_idle(10)
    failed = await job(client, user.key_headers, job_id)
    assert failed["status"] == "FAILED"
    assert "response too large" in failed["error"]


async def test_listings_carry_a_bounded_preview_and_the_job_the_whole_result(
    app: FastAPI, client: httpx2.AsyncClient, make_user: MakeUser, agents_server: LoopbackAgents
) -> None:
    from agora.sandbox.protocol import Step

    long_result = "r" * 100_000
    agent_id = await register(
        app, agents_server, echo(step=lambda _job: Step("completed", result=long_result))
    )
    user = await make_user()
    job_id = (await create(client, user.key_headers, agent_id)).json()["data"]["id"]
    await dispatcher(app).run_until_idle(5)
    whole = await job(client, user.key_headers, job_id)
    assert whole["result"] == long_result and whole["resultTruncated"] is False
    listed = (await client.get("/v1/jobs", headers=user.key_headers)).json()["data"]
    assert len(listed[0]["result"]) == 2000 and listed[0]["resultTruncated"] is True
    by_agent = await client.get(f"/v1/agents/{agent_id}/jobs", headers=user.key_headers)
    assert by_agent.status_code == 200, by_agent.text
    assert len(by_agent.json()["data"][0]["result"]) == 2000
