"""Catalogue fixtures: agents registered through the real service against loopback agents."""

from __future__ import annotations

import uuid
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from fastapi import FastAPI

from agora.agents import service
from agora.kit.db import Database
from agora.models import Agent
from agora.sandbox.agents import DEMO_AGENTS
from tests.support.agents import LoopbackAgents

RegisterAgent = Callable[..., Awaitable[Agent]]


@pytest.fixture
def echo_url(agents_server: LoopbackAgents) -> str:
    return agents_server.serve(DEMO_AGENTS[0].behaviour())


@pytest.fixture
def register_agent(app: FastAPI, db: Database, echo_url: str) -> RegisterAgent:
    """``await register_agent(name=..., categories=[...], verify=True)`` via the live checks."""

    async def _register(**kwargs: Any) -> Agent:
        kwargs.setdefault("base_url", echo_url)
        kwargs.setdefault("name", f"Agent {uuid.uuid4().hex[:6]}")
        kwargs.setdefault("verify", True)
        probe = await service.probe(app.state.agent_client, kwargs.pop("base_url"))
        async with db.transaction() as session:
            return await service.register_agent(session, app.state.settings, probe, **kwargs)

    return _register


async def make_categories(db: Database, *slugs: str) -> None:
    async with db.transaction() as session:
        for slug in slugs:
            await service.create_category(session, slug=slug, name=slug.title())
