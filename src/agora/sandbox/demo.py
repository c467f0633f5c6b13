"""The embedded demo: on ``agora serve`` with the embedded default, make sure a demo user exists
and print a fresh key for it (earlier demo keys are revoked: the secret is never stored in
plaintext, so each start issues a new one), and register and verify the built-in demo agents
that the same process serves under ``/demo-agents``."""

from __future__ import annotations

from dataclasses import dataclass

from agora.accounts import provisioning
from agora.accounts import service as accounts
from agora.agents import repository as agents_repo
from agora.agents import service as agents
from agora.kit.db import Database
from agora.kit.money import to_base
from agora.kit.timeutil import utcnow
from agora.mip003.client import Mip003Client
from agora.models.statuses import AgentStatus
from agora.sandbox import DEMO_AGENTS, DEMO_CATEGORIES
from agora.settings import Settings

DEMO_EMAIL = "demo@agora.local"
DEMO_NAME = "Demo User"
DEMO_CREDITS = to_base(1000)
DEMO_KEY_NAME = "demo"


@dataclass(frozen=True)
class DemoInfo:
    email: str
    api_key: str
    workspace_id: str
    created_user: bool


async def ensure_demo_user(db: Database) -> DemoInfo:
    async with db.transaction() as session:
        user = await accounts.user_by_email(session, DEMO_EMAIL)
        if user is None:
            created = await provisioning.create_user(
                session, email=DEMO_EMAIL, name=DEMO_NAME, credits=DEMO_CREDITS
            )
            created.key.name = DEMO_KEY_NAME
            return DemoInfo(DEMO_EMAIL, created.api_key, str(created.workspace.id), True)
        await accounts.revoke_named_keys(session, user.id, DEMO_KEY_NAME, utcnow())
        key = await provisioning.create_key(session, user=user, name=DEMO_KEY_NAME)
        return DemoInfo(DEMO_EMAIL, key.plaintext, str(key.key.default_workspace_id), False)


async def demo_sign_in_link(db: Database, settings: Settings, base_url: str) -> str | None:
    """A one-time browser sign-in link for the demo user (printed next to the demo key)."""
    async with db.transaction() as session:
        return await accounts.demo_sign_in_link(session, settings, DEMO_EMAIL, base_url)


async def ensure_demo_agents(
    db: Database, client: Mip003Client, settings: Settings, base_url: str
) -> list[str]:
    """Register (first start) or re-point and re-verify (later starts, the port may differ) each
    demo agent served at ``{base_url}/{slug}``, through the same live MIP-003 checks as any
    operator registration. Returns the agent ids."""
    async with db.transaction() as session:
        existing = {c.slug for c in await agents.list_categories(session)}
        for slug, name in DEMO_CATEGORIES.items():
            if slug not in existing:
                await agents.create_category(session, slug=slug, name=name)
    ids: list[str] = []
    for demo in DEMO_AGENTS:
        url = f"{base_url}/{demo.slug}"
        identifier = f"demo-{demo.slug}"
        async with db.transaction(write=False) as session:
            agent = await agents_repo.by_identifier(session, identifier)
        if agent is not None and agent.base_url == url and agent.status == AgentStatus.VERIFIED:
            ids.append(str(agent.id))
            continue
        probe = await agents.probe(client, url)  # no transaction open
        async with db.transaction() as session:
            if agent is None:
                agent = await agents.register_agent(
                    session,
                    settings,
                    probe,
                    name=demo.name,
                    description=demo.description,
                    price=demo.price,
                    categories=[demo.category],
                    tags=list(demo.tags),
                    verify=True,
                    agent_identifier=identifier,
                )
            else:
                await agents_repo.set_base_url(session, agent.id, probe.base_url)
                agent = await agents.verify_agent(session, settings, str(agent.id), probe)
        ids.append(str(agent.id))
    return ids
