"""The embedded demo's seeding at ``agora serve`` start-up (``cli/serve.py``): the demo user, its
sign-in link and the verified demo agents (``agora.sandbox.demo``), each in its own short
transaction; each demo agent's live check runs with no transaction open."""

from __future__ import annotations

from dataclasses import dataclass

from agora.agents import service as agents
from agora.kit.db import Database
from agora.mip003.client import Mip003Client
from agora.sandbox import DEMO_AGENTS
from agora.sandbox import demo as sandbox
from agora.settings import Settings


@dataclass(frozen=True)
class SeededDemo:
    user: sandbox.DemoInfo
    sign_in_link: str | None
    agent_ids: list[str]


async def seed_demo(
    db: Database, client: Mip003Client, settings: Settings, base_url: str, agents_url: str
) -> SeededDemo:
    """Make sure the demo user exists (with a fresh key and sign-in link) and register, or
    re-point and re-verify, each demo agent served at ``{agents_url}/{slug}``."""
    async with db.transaction() as session:
        user = await sandbox.ensure_demo_user(session)
    async with db.transaction() as session:
        link = await sandbox.demo_sign_in_link(session, settings, base_url)
    async with db.transaction() as session:
        await sandbox.ensure_demo_categories(session)
    ids: list[str] = []
    for demo in DEMO_AGENTS:
        url = f"{agents_url}/{demo.slug}"
        async with db.transaction(write=False) as session:
            agent, current = await sandbox.registered_demo_agent(session, demo, url)
        if agent is None or not current:
            probe = await agents.probe(client, url)  # no transaction open
            async with db.transaction() as session:
                agent = await sandbox.register_demo_agent(session, settings, demo, agent, probe)
        ids.append(str(agent.id))
    return SeededDemo(user, link, ids)
