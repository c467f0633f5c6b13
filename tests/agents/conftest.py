"""Catalogue fixtures: agents registered through the real service against loopback agents."""

from __future__ import annotations

import uuid
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from fastapi import FastAPI

from agora.agents import service
from agora.demo_agents.agents import DEMO_AGENTS
from agora.identity import repository as identity_repo
from agora.identity import service as identity
from agora.kit.db import Database
from agora.models import Agent
from tests.conftest import MakeUser, TestUser
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
        async with db.transaction() as session:
            return await service.register_agent(
                session, app.state.agent_client, app.state.settings, **kwargs
            )

    return _register


@pytest.fixture
async def admin(db: Database, make_user: MakeUser) -> TestUser:
    """A user holding an admin key."""
    user = await make_user(name="Operator")
    async with db.transaction() as session:
        owner = await identity_repo.user_by_id(session, user.user_id)
        assert owner is not None
        key = await identity.create_key(session, user=owner, kind="admin")
    return TestUser(user.user_id, user.workspace_id, user.email, key.plaintext)


async def make_categories(db: Database, *slugs: str) -> None:
    async with db.transaction() as session:
        for slug in slugs:
            await service.create_category(session, slug=slug, name=slug.title())
