"""Issue 50.5: OpenTelemetry traces of one hire, recorded by the SDK's in-memory exporter: the API
span of POST /v1/agents/{id}/jobs, its database spans and the dispatcher's call to the agent
(run later, by another loop) are one trace; the dispatcher's spans carry the job id. Off (the
default), a hire records no traceparent."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import httpx2
from fastapi import FastAPI
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.trace import SpanKind

from agora.app import create_app
from agora.kit.db import Database
from agora.kit.telemetry import JOB_ID, Telemetry
from agora.settings import Settings
from tests.conftest import MakeUser
from tests.jobs.helpers import create, dispatcher, echo, fast_settings, job, register
from tests.support.agents import LoopbackAgents


@asynccontextmanager
async def _app(
    settings: Settings, db: Database, telemetry: Telemetry | None
) -> AsyncIterator[tuple[FastAPI, httpx2.AsyncClient]]:
    app = create_app(
        fast_settings(settings),
        db=db,
        migrate=False,
        background=False,
        **({"telemetry": telemetry} if telemetry else {}),
    )
    async with app.router.lifespan_context(app):
        transport = httpx2.ASGITransport(app=app)
        async with httpx2.AsyncClient(transport=transport, base_url="http://testserver") as c:
            yield app, c


async def test_one_hire_is_one_trace(
    settings: Settings, db: Database, make_user: MakeUser, agents_server: LoopbackAgents
) -> None:
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    async with _app(settings, db, Telemetry(provider)) as (app, client):
        user = await make_user(credits=10_000_000)
        agent_id = await register(app, agents_server, echo())
        exporter.clear()
        created = await create(client, user.key_headers, agent_id)
        assert created.status_code == 201, created.text
        job_id = created.json()["data"]["id"]
        await dispatcher(app).run_until_idle()
        assert (await job(client, user.key_headers, job_id))["status"] == "COMPLETED"
    spans = exporter.get_finished_spans()

    [api] = [
        s for s in spans if s.kind == SpanKind.SERVER and s.name == "POST /v1/agents/{agentId}/jobs"
    ]
    trace_id = api.context.trace_id
    in_trace = [s for s in spans if s.context.trace_id == trace_id]
    database = [s for s in in_trace if s.attributes and "db.system" in s.attributes]
    assert any("INSERT" in s.name or "INSERT" in str(s.attributes) for s in database), [
        s.name for s in database
    ]
    [call] = [s for s in in_trace if s.name == "agora.dispatch.agent_call"]
    assert call.attributes is not None and call.attributes[JOB_ID] == job_id
    steps = [s for s in in_trace if s.name == "agora.dispatch.step"]
    assert steps and all(s.attributes and s.attributes[JOB_ID] == job_id for s in steps)
    assert all(s.parent is not None and s.parent.trace_id == trace_id for s in steps)
    assert [s for s in in_trace if s.name == "agora.dispatch.status_poll"]
    assert [s for s in in_trace if s.name == "agora.dispatch.result"]
    # the agent call happened within a step of the dispatcher, a child of the hire's request
    [step_of_call] = [s for s in steps if call.parent and s.context.span_id == call.parent.span_id]
    assert step_of_call.start_time >= api.end_time  # run later, still the same trace
    # the dispatcher's own statements are in the trace too
    assert any(s.start_time >= api.end_time for s in database)


async def test_off_by_default(
    settings: Settings, db: Database, make_user: MakeUser, agents_server: LoopbackAgents
) -> None:
    async with _app(settings, db, None) as (app, client):
        assert app.state.settings.otel_endpoint == ""
        user = await make_user(credits=10_000_000)
        agent_id = await register(app, agents_server, echo())
        created = await create(client, user.key_headers, agent_id)
        job_id = created.json()["data"]["id"]
        events = await client.get(f"/v1/jobs/{job_id}/events", headers=user.key_headers)
        assert events.status_code == 200, events.text
        assert "traceparent" not in events.text
