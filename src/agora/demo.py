"""The embedded demo: on ``agora serve`` with the embedded default, make sure a demo user exists
and print a fresh key for it (earlier demo keys are revoked: the secret is never stored in
plaintext, so each start issues a new one), and register and verify the built-in demo agents
that the same process serves under ``/demo-agents``."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import update

from agora.agents import repository as agents_repo
from agora.agents import service as agents
from agora.demo_agents import DEMO_AGENTS, DEMO_CATEGORIES
from agora.identity import repository as identity_repo
from agora.identity import service as identity
from agora.kit.db import Database
from agora.kit.money import to_base
from agora.kit.timeutil import utcnow
from agora.mip003.client import Mip003Client
from agora.models import ApiKey
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
        user = await identity_repo.user_by_email(session, DEMO_EMAIL)
        if user is None:
            created = await identity.create_user(
                session, email=DEMO_EMAIL, name=DEMO_NAME, credits=DEMO_CREDITS
            )
            created.key.name = DEMO_KEY_NAME
            return DemoInfo(DEMO_EMAIL, created.api_key, str(created.workspace.id), True)
        await session.execute(
            update(ApiKey)
            .where(
                ApiKey.user_id == user.id,
                ApiKey.name == DEMO_KEY_NAME,
                ApiKey.revoked_at.is_(None),
            )
            .values(revoked_at=utcnow())
        )
        key = await identity.create_key(session, user=user, name=DEMO_KEY_NAME)
        return DemoInfo(DEMO_EMAIL, key.plaintext, str(key.key.default_workspace_id), False)


async def ensure_demo_agents(
    db: Database, client: Mip003Client, settings: Settings, base_url: str
) -> list[str]:
    """Register (first start) or re-point and re-verify (later starts, the port may differ) each
    demo agent served at ``{base_url}/{slug}``, through the same live MIP-003 checks as any
    operator registration. Returns the agent ids."""
    ids: list[str] = []
    async with db.transaction() as session:
        existing = {c.slug for c in await agents.list_categories(session)}
        for slug, name in DEMO_CATEGORIES.items():
            if slug not in existing:
                await agents.create_category(session, slug=slug, name=name)
        for demo in DEMO_AGENTS:
            url = f"{base_url}/{demo.slug}"
            agent = await agents_repo.by_identifier(session, f"demo-{demo.slug}")
            if agent is None:
                agent = await agents.register_agent(
                    session,
                    client,
                    settings,
                    base_url=url,
                    name=demo.name,
                    description=demo.description,
                    price=demo.price,
                    categories=[demo.category],
                    tags=list(demo.tags),
                    verify=True,
                    agent_identifier=f"demo-{demo.slug}",
                )
            elif agent.base_url != url or agent.status != "VERIFIED":
                agent.base_url = url
                await session.flush()
                agent = await agents.verify_agent(session, client, settings, str(agent.id))
            ids.append(str(agent.id))
    return ids
