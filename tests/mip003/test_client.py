"""The MIP-003 client against agents that lag behind the draft (real in-process HTTP apps)."""

from __future__ import annotations

from typing import Any

import httpx2
import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

from agora.kit.outbound import OutboundPolicy
from agora.mip003.client import Mip003Client, new_identifier_from_purchaser, validate_base_url
from agora.mip003.errors import (
    AgentBadResponse,
    AgentJobNotFound,
    AgentRejectedInput,
    AgentTimeout,
    AgentUnreachable,
)
from agora.sandbox.agents import ECHO_SCHEMA
from agora.sandbox.protocol import Behaviour, Step
from tests.conftest import LOOPBACK_ALLOW
from tests.support.agents import LoopbackAgents


def legacy_agent() -> Starlette:
    """Answers the way older agents and the SDK do: job_id, nulls, 422, ms timestamps."""

    async def start_job(request: Request) -> Response:
        body: dict[str, Any] = await request.json()
        if "identifier_from_purchaser" not in body:
            return JSONResponse({"detail": [{"msg": "field required"}]}, status_code=422)
        if body["input_data"].get("text") == "":
            return JSONResponse({"detail": "text must not be empty"}, status_code=400)
        return JSONResponse(
            {"status": "success", "job_id": 42, "payByTime": 1_760_000_000_000, "amounts": []}
        )

    async def status(request: Request) -> Response:
        job = request.query_params["job_id"]
        if job == "missing":
            return JSONResponse({"detail": "not found"}, status_code=404)
        if job == "garbage":
            return PlainTextResponse("<html>oops</html>")
        if job == "broken":
            return JSONResponse({"detail": "boom"}, status_code=500)
        return JSONResponse(
            {
                "id": "s-1",
                "status": "AWAITING_INPUT",
                "result": {"partial": True},
                "input_schema": {"input_data": [{"id": "ok", "type": "boolean", "name": "OK"}]},
            }
        )

    async def input_schema(_request: Request) -> Response:
        return JSONResponse(
            {
                "input_data": None,
                "input_groups": [
                    {"id": "g", "title": "G", "input_data": [{"id": "x", "type": "string"}]}
                ],
            }
        )

    async def availability(_request: Request) -> Response:
        return JSONResponse({"status": "unavailable", "type": "masumi-agent", "message": None})

    return Starlette(
        routes=[
            Route("/start_job", start_job, methods=["POST"]),
            Route("/status", status),
            Route("/input_schema", input_schema),
            Route("/availability", availability),
        ]
    )


@pytest.fixture
async def client() -> Mip003Client:
    return Mip003Client(transport=httpx2.ASGITransport(app=legacy_agent()))


async def test_liberal_parsing_of_older_agents(client: Mip003Client) -> None:
    base = "http://agent.test"
    started = await client.start_job(
        base, identifier_from_purchaser=new_identifier_from_purchaser(), input_data={"text": "a"}
    )
    assert started.job_id == "42"
    status = await client.status(base, "42")
    assert status.status == "awaiting_input"
    assert status.status_id == "s-1"
    assert status.result == '{"partial": true}'
    assert status.input_schema == {"input_data": [{"id": "ok", "type": "boolean", "name": "OK"}]}
    schema = await client.input_schema(base)
    assert [f["id"] for f in schema.fields] == ["x"]
    availability = await client.availability(base)
    assert availability.available is False
    await client.aclose()


async def test_failures_become_our_exception_tree(client: Mip003Client) -> None:
    base = "http://agent.test"
    with pytest.raises(AgentRejectedInput, match="text must not be empty"):
        await client.start_job(base, identifier_from_purchaser="ab" * 8, input_data={"text": ""})
    with pytest.raises(AgentJobNotFound):
        await client.status(base, "missing")
    with pytest.raises(AgentBadResponse, match="not a JSON object"):
        await client.status(base, "garbage")
    with pytest.raises(AgentBadResponse, match="500"):
        await client.status(base, "broken")
    await client.aclose()


async def test_unreachable_and_slow_agents(agents_server: LoopbackAgents) -> None:
    hanging = Behaviour("hang", ECHO_SCHEMA, lambda job: Step("completed", result="late"))
    hanging.fault, hanging.hang_seconds = "status_hang", 3.0
    url = agents_server.serve(hanging)
    async with Mip003Client(
        timeout=0.3, policy=OutboundPolicy.from_setting(LOOPBACK_ALLOW)
    ) as client:
        with pytest.raises(AgentUnreachable):
            await client.availability("http://127.0.0.1:9")
        started = await client.start_job(url, identifier_from_purchaser="cd" * 8, input_data={})
        with pytest.raises(AgentTimeout):  # a real socket: the timeout applies
            await client.status(url, started.job_id)


def test_identifier_and_base_url_rules() -> None:
    identifier = new_identifier_from_purchaser()
    assert len(identifier) == 26 and int(identifier, 16) >= 0
    assert validate_base_url(" https://a.example/x/ ") == "https://a.example/x"
    for bad in ("ftp://a", "a.example", "http://a?x=1", "http://"):
        with pytest.raises(ValueError):
            validate_base_url(bad)
