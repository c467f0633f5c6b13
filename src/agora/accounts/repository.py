"""All SQL for accounts: tokens, browser sessions, self-service API keys."""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta

from sqlalchemy import func, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from agora.identity.repository import add as add  # one insert helper for both domains
from agora.models import AccountToken, ApiKey, BrowserSession, User


async def user_by_email(session: AsyncSession, email: str) -> User | None:
    return await session.scalar(select(User).where(User.email == email))


async def token_by_hash(session: AsyncSession, token_hash: str) -> AccountToken | None:
    return await session.scalar(select(AccountToken).where(AccountToken.token_hash == token_hash))


async def use_token(session: AsyncSession, token_id: uuid.UUID, now: datetime) -> bool:
    """Compare-and-set: one use, only while unused, unrevoked and unexpired."""
    result = await session.execute(
        update(AccountToken)
        .where(
            AccountToken.id == token_id,
            AccountToken.uses < AccountToken.max_uses,
            AccountToken.revoked_at.is_(None),
            AccountToken.expires_at > now,
        )
        .values(uses=AccountToken.uses + 1, last_used_at=now)
        .execution_options(synchronize_session=False)
    )
    return bool(getattr(result, "rowcount", 0))


async def revoke_tokens(
    session: AsyncSession, user_id: uuid.UUID, purposes: tuple[str, ...], now: datetime
) -> None:
    await session.execute(
        update(AccountToken)
        .where(
            AccountToken.user_id == user_id,
            AccountToken.purpose.in_(purposes),
            AccountToken.revoked_at.is_(None),
        )
        .values(revoked_at=now)
        .execution_options(synchronize_session=False)
    )


async def invitations_of(session: AsyncSession, org_id: uuid.UUID) -> list[AccountToken]:
    result = await session.scalars(
        select(AccountToken)
        .where(AccountToken.organization_id == org_id, AccountToken.purpose == "invitation")
        .order_by(AccountToken.created_at.desc(), AccountToken.id.desc())
        .limit(500)
    )
    return list(result)


async def token_by_id(session: AsyncSession, token_id: uuid.UUID) -> AccountToken | None:
    return await session.get(AccountToken, token_id)


# Browser sessions


async def session_with_user(
    session: AsyncSession, token_hash: str
) -> tuple[BrowserSession, User] | None:
    row = (
        await session.execute(
            select(BrowserSession, User)
            .join(User, User.id == BrowserSession.user_id)
            .where(BrowserSession.token_hash == token_hash)
        )
    ).first()
    return (row[0], row[1]) if row else None


async def sessions_of(
    session: AsyncSession, user_id: uuid.UUID, now: datetime
) -> list[BrowserSession]:
    result = await session.scalars(
        select(BrowserSession)
        .where(
            BrowserSession.user_id == user_id,
            BrowserSession.revoked_at.is_(None),
            BrowserSession.expires_at > now,
        )
        .order_by(BrowserSession.created_at.desc(), BrowserSession.id.desc())
        .limit(500)
    )
    return list(result)


async def session_by_id(session: AsyncSession, session_id: uuid.UUID) -> BrowserSession | None:
    return await session.get(BrowserSession, session_id)


async def revoke_sessions(
    session: AsyncSession, user_id: uuid.UUID, now: datetime, only: uuid.UUID | None = None
) -> int:
    query = update(BrowserSession).where(
        BrowserSession.user_id == user_id, BrowserSession.revoked_at.is_(None)
    )
    if only is not None:
        query = query.where(BrowserSession.id == only)
    result = await session.execute(
        query.values(revoked_at=now).execution_options(synchronize_session=False)
    )
    return int(getattr(result, "rowcount", 0))


async def touch_session(
    session: AsyncSession, session_id: uuid.UUID, now: datetime, min_interval: timedelta
) -> None:
    await session.execute(
        update(BrowserSession)
        .where(
            BrowserSession.id == session_id,
            or_(
                BrowserSession.last_seen_at.is_(None),
                BrowserSession.last_seen_at < now - min_interval,
            ),
        )
        .values(last_seen_at=now)
        .execution_options(synchronize_session=False)
    )


# API keys


async def active_key_count(session: AsyncSession, user_id: uuid.UUID, now: datetime) -> int:
    query = (
        select(func.count())
        .select_from(ApiKey)
        .where(
            ApiKey.user_id == user_id,
            ApiKey.revoked_at.is_(None),
            or_(ApiKey.expires_at.is_(None), ApiKey.expires_at > now),
        )
    )
    return int(await session.scalar(query) or 0)


async def keys_of(session: AsyncSession, user_id: uuid.UUID) -> list[ApiKey]:
    result = await session.scalars(
        select(ApiKey)
        .where(ApiKey.user_id == user_id, ApiKey.revoked_at.is_(None))
        .order_by(ApiKey.created_at.desc(), ApiKey.id.desc())
        .limit(500)
    )
    return list(result)


async def session_made_keys(
    session: AsyncSession, user_id: uuid.UUID, now: datetime
) -> list[ApiKey]:
    """The user's live keys that a browser session made (what a password reset revokes)."""
    result = await session.scalars(
        select(ApiKey)
        .where(
            ApiKey.user_id == user_id,
            ApiKey.created_by_session_id.is_not(None),
            ApiKey.revoked_at.is_(None),
            or_(ApiKey.expires_at.is_(None), ApiKey.expires_at > now),
        )
        .order_by(ApiKey.created_at.desc(), ApiKey.id.desc())
        .limit(500)
    )
    return list(result)


async def revoke_session_made_keys(session: AsyncSession, user_id: uuid.UUID, now: datetime) -> int:
    result = await session.execute(
        update(ApiKey)
        .where(
            ApiKey.user_id == user_id,
            ApiKey.created_by_session_id.is_not(None),
            ApiKey.revoked_at.is_(None),
        )
        .values(revoked_at=now)
        .execution_options(synchronize_session=False)
    )
    return int(getattr(result, "rowcount", 0))


async def mark_authenticated(session: AsyncSession, session_id: uuid.UUID, now: datetime) -> None:
    await session.execute(
        update(BrowserSession)
        .where(BrowserSession.id == session_id)
        .values(authenticated_at=now)
        .execution_options(synchronize_session=False)
    )
