"""Shared helpers for job, credit and notification tests: real agents on loopback, registered
through the catalogue service, and a dispatcher driven directly."""

from __future__ import annotations

from typing import Any

import httpx2
from fastapi import FastAPI

from agora.agents import service as agents
from agora.dispatch.worker import Dispatcher
from agora.kit.db import Database
from agora.payments.backend import payment_backend
from agora.sandbox.agents import DEMO_AGENTS
from agora.sandbox.protocol import Behaviour
from agora.settings import Settings
from tests.support.agents import LoopbackAgents

ECHO = DEMO_AGENTS[0]
REVIEWER = DEMO_AGENTS[1]


def fast_settings(settings: Settings) -> Settings:
    """Short leases, polls and retries so dispatch tests finish in well under a second."""
    return settings.with_changes(
        lease_seconds=5.0,
        agent_timeout_seconds=2.0,
        status_poll_initial_seconds=0.01,
        status_poll_max_seconds=0.05,
        agent_retry_seconds=0.01,
        max_agent_attempts=3,
        notification_retry_schedule_seconds=[0.01, 0.01],  # 3 attempts
    )


async def register(
    app: FastAPI,
    agents_server: LoopbackAgents,
    behaviour: Behaviour,
    *,
    price: float | int = 0,
    verify: bool = True,
) -> str:
    db: Database = app.state.db
    url = agents_server.serve(behaviour)
    probe = await agents.probe(app.state.agent_client, url)
    async with db.transaction() as session:
        agent = await agents.register_agent(
            session,
            app.state.settings,
            probe,
            name=behaviour.name.title(),
            price=price,
            verify=verify,
        )
        return str(agent.id)


def echo(**kwargs: Any) -> Behaviour:
    return Behaviour(**{**ECHO.behaviour().__dict__, "started": [], "start_times": [], **kwargs})


def reviewer(**kwargs: Any) -> Behaviour:
    return Behaviour(
        **{**REVIEWER.behaviour().__dict__, "started": [], "start_times": [], **kwargs}
    )


def dispatcher(app: FastAPI, owner: str | None = None) -> Dispatcher:
    settings = app.state.settings
    return Dispatcher(
        app.state.db,
        app.state.agent_client,
        settings,
        owner=owner,
        payments=payment_backend(settings),
        a2a=app.state.a2a_client,
    )


async def create(
    client: httpx2.AsyncClient,
    headers: dict[str, str],
    agent_id: str,
    body: dict[str, Any] | None = None,
    **extra_headers: str,
) -> httpx2.Response:
    return await client.post(
        f"/v1/agents/{agent_id}/jobs",
        json=body if body is not None else {"inputData": {"text": "hello"}},
        headers={**headers, **extra_headers},
    )


async def job(client: httpx2.AsyncClient, headers: dict[str, str], job_id: str) -> dict[str, Any]:
    response = await client.get(f"/v1/jobs/{job_id}", headers=headers)
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()["data"]
    return data
