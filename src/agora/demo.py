"""The embedded demo: on ``agora serve`` with the embedded default, make sure a demo user exists
and print a fresh key for it (earlier demo keys are revoked: the secret is never stored in
plaintext, so each start issues a new one)."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import update

from agora.identity import repository as identity_repo
from agora.identity import service as identity
from agora.kit.db import Database
from agora.kit.money import to_base
from agora.kit.timeutil import utcnow
from agora.models import ApiKey

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
