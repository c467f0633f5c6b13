"""The embedded demo's seeding (``agora serve`` with the embedded default; the transactions are
the CLI's, ``cli/demo.py``): a demo user with a fresh key (earlier demo keys are revoked: the
secret is never stored in plaintext, so each start issues a new one), and the built-in demo
agents that the same process serves under ``/demo-agents``, registered and verified."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy.ext.asyncio import AsyncSession

from agora.accounts import provisioning
from agora.accounts import service as accounts
from agora.agents import service as agents
from agora.agents.service import Probe
from agora.kit.money import to_base
from agora.kit.timeutil import utcnow
from agora.models import Agent
from agora.models.statuses import AgentStatus
from agora.sandbox.agents import DEMO_CATEGORIES, DemoAgent
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


async def ensure_demo_user(session: AsyncSession) -> DemoInfo:
    """The demo user (made on the first start, with credits) and a fresh key for it."""
    user = await accounts.user_by_email(session, DEMO_EMAIL)
    if user is None:
        created = await provisioning.create_user(
            session, email=DEMO_EMAIL, name=DEMO_NAME, credits=DEMO_CREDITS
        )
        created.key.name = DEMO_KEY_NAME
        return DemoInfo(DEMO_EMAIL, created.api_key, str(created.workspace.id))
    await accounts.revoke_named_keys(session, user.id, DEMO_KEY_NAME, utcnow())
    key = await provisioning.create_key(session, user=user, name=DEMO_KEY_NAME)
    return DemoInfo(DEMO_EMAIL, key.plaintext, str(key.key.default_workspace_id))


async def demo_sign_in_link(session: AsyncSession, settings: Settings, base_url: str) -> str | None:
    """A one-time browser sign-in link for the demo user (printed next to the demo key)."""
    return await accounts.demo_sign_in_link(session, settings, DEMO_EMAIL, base_url)


async def ensure_demo_categories(session: AsyncSession) -> None:
    existing = {c.slug for c in await agents.list_categories(session)}
    for slug, name in DEMO_CATEGORIES.items():
        if slug not in existing:
            await agents.create_category(session, slug=slug, name=name)


def demo_identifier(demo: DemoAgent) -> str:
    return f"demo-{demo.slug}"


async def registered_demo_agent(
    session: AsyncSession, demo: DemoAgent, url: str
) -> tuple[Agent | None, bool]:
    """The demo agent as registered (None on the first start), and whether it is current:
    verified at ``url`` (a later start may serve it on another port)."""
    agent = await agents.by_identifier(session, demo_identifier(demo))
    current = agent is not None and agent.base_url == url and agent.status == AgentStatus.VERIFIED
    return agent, current


async def register_demo_agent(
    session: AsyncSession, settings: Settings, demo: DemoAgent, agent: Agent | None, probe: Probe
) -> Agent:
    """Register (first start) or re-point and re-verify (later starts) the demo agent after its
    live check (``probe``), through the same rules as any operator registration."""
    if agent is None:
        return await agents.register_agent(
            session,
            settings,
            probe,
            name=demo.name,
            description=demo.description,
            price=demo.price,
            categories=[demo.category],
            tags=list(demo.tags),
            verify=True,
            agent_identifier=demo_identifier(demo),
        )
    await agents.set_base_url(session, agent.id, probe.base_url)
    return await agents.verify_agent(session, settings, str(agent.id), probe)
