"""Profile rules.

PUT replaces the editable profile: an omitted opt-in reverts to its default, false (no consent
unless stated); an omitted ``name`` keeps the current name, because a user always has one and
there is no default to revert to. PATCH changes only the fields it is given.
"""

from __future__ import annotations

import uuid

from sqlalchemy.ext.asyncio import AsyncSession

from agora.accounts import service as accounts
from agora.kit.errors import NotFound
from agora.kit.fields import patch_fields, trimmed
from agora.models import User
from agora.models.rows import UserColumns
from agora.users.schemas import ProfileUpdate


async def _user(session: AsyncSession, user_id: uuid.UUID) -> User:
    user = await accounts.user_by_id(session, user_id)
    if user is None:
        raise NotFound("User not found")
    return user


async def get_profile(session: AsyncSession, user_id: uuid.UUID) -> UserColumns:
    """The caller's profile as a Core row (``GET /v1/users/me`` and the MCP profile tools),
    without loading an entity."""
    row = await accounts.user_row(session, user_id)
    if row is None:
        raise NotFound("User not found")
    return row


def _clean_name(name: str) -> str:
    return trimmed("name", name, 200)


async def replace_profile(session: AsyncSession, user_id: uuid.UUID, body: ProfileUpdate) -> User:
    user = await _user(session, user_id)
    if body.name is not None:
        user.name = _clean_name(body.name)
    user.marketing_opt_in = bool(body.marketingOptIn)
    user.job_status_notifications_opt_in = bool(body.jobStatusNotificationsOptIn)
    await session.flush()
    return user


async def update_profile(session: AsyncSession, user_id: uuid.UUID, body: ProfileUpdate) -> User:
    user = await _user(session, user_id)
    given = patch_fields(body, require_one=False)
    if "name" in given:
        user.name = _clean_name(given["name"])
    if "marketingOptIn" in given:
        user.marketing_opt_in = given["marketingOptIn"]
    if "jobStatusNotificationsOptIn" in given:
        user.job_status_notifications_opt_in = given["jobStatusNotificationsOptIn"]
    await session.flush()
    return user
