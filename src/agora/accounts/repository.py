"""All SQL for accounts: users, organizations, memberships, workspaces, API keys, tokens and
browser sessions."""

from __future__ import annotations

import uuid
from datetime import datetime

from sqlalchemy import bindparam, func, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from agora.kit.reads import Prepared, read_one
from agora.models import (
    AccountDeletion,
    AccountToken,
    ApiKey,
    BrowserSession,
    Organization,
    OrganizationMember,
    User,
    UserIdentity,
)
from agora.models.rows import UserColumns
from agora.models.statuses import KeyKind


async def user_by_email(session: AsyncSession, email: str) -> User | None:
    return await session.scalar(select(User).where(User.email == email.lower()))


async def user_by_id(session: AsyncSession, user_id: uuid.UUID) -> User | None:
    return await session.get(User, user_id)


_USER_ROW: Prepared[UserColumns] = Prepared(
    select(User.__table__).where(User.__table__.c.id == bindparam("user_id")), shape=UserColumns
)


async def user_row(session: AsyncSession, user_id: uuid.UUID) -> UserColumns | None:
    """The user's columns as a row (no ORM entity; lean in a read unit: kit/reads.py): for
    reads that only show them."""
    return await read_one(session, _USER_ROW, user_id=user_id)


async def organization_by_id(session: AsyncSession, org_id: uuid.UUID) -> Organization | None:
    return await session.get(Organization, org_id)


async def api_key_with_user(session: AsyncSession, key_hash: str) -> tuple[ApiKey, User] | None:
    row = (
        await session.execute(
            select(ApiKey, User)
            .join(User, User.id == ApiKey.user_id)
            .where(ApiKey.key_hash == key_hash)
        )
    ).first()
    return (row[0], row[1]) if row else None


async def api_key_by_id(session: AsyncSession, key_id: uuid.UUID) -> ApiKey | None:
    return await session.get(ApiKey, key_id)


async def revoke_workspace_keys(
    session: AsyncSession, user_id: uuid.UUID, workspace_id: uuid.UUID, now: datetime
) -> int:
    """Revoke the user's live keys (user and coworker) whose default workspace is
    ``workspace_id``: a member leaving or removed from its organization."""
    result = await session.execute(
        update(ApiKey)
        .where(
            ApiKey.user_id == user_id,
            ApiKey.default_workspace_id == workspace_id,
            ApiKey.revoked_at.is_(None),
        )
        .values(revoked_at=now)
        .execution_options(synchronize_session=False)
    )
    return int(getattr(result, "rowcount", 0))


async def workspace_keys(
    session: AsyncSession, workspace_id: uuid.UUID, now: datetime
) -> list[tuple[ApiKey, str, str]]:
    """The live (unrevoked, unexpired) keys whose default workspace is ``workspace_id``, with
    their owner's email and name, newest first (at most 1000)."""
    rows = await session.execute(
        select(ApiKey, User.email, User.name)
        .join(User, User.id == ApiKey.user_id)
        .where(
            ApiKey.default_workspace_id == workspace_id,
            ApiKey.revoked_at.is_(None),
            or_(ApiKey.expires_at.is_(None), ApiKey.expires_at > now),
        )
        .order_by(ApiKey.created_at.desc(), ApiKey.id.desc())
        .limit(1000)
    )
    return [(key, email, name) for key, email, name in rows]


async def revoke_named_keys(
    session: AsyncSession, user_id: uuid.UUID, name: str, now: datetime
) -> None:
    """Revoke the user's live keys called ``name`` (the demo's key on each start)."""
    await session.execute(
        update(ApiKey)
        .where(ApiKey.user_id == user_id, ApiKey.name == name, ApiKey.revoked_at.is_(None))
        .values(revoked_at=now)
    )


async def add(session: AsyncSession, *rows: object) -> None:
    """Insert ``rows`` (flushed, so generated ids are set)."""
    session.add_all(rows)
    await session.flush()


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


async def cancel_account_deletion(session: AsyncSession, user_id: uuid.UUID, now: datetime) -> bool:
    """A sign-in cancels the person's pending account deletion (docs/accounts.md, "Deleting
    your account"); whether one was pending."""
    result = await session.execute(
        update(AccountDeletion)
        .where(
            AccountDeletion.user_id == user_id,
            AccountDeletion.state.in_(("requested", "scheduled")),
        )
        .values(state="cancelled", cancelled_at=now, token_hash=None)
        .execution_options(synchronize_session=False)
    )
    return bool(getattr(result, "rowcount", 0))


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


async def operator_ids(session: AsyncSession, now: datetime, limit: int) -> list[uuid.UUID]:
    """Users holding a live admin key (the operators), at most ``limit``."""
    rows = await session.scalars(
        select(ApiKey.user_id)
        .where(
            ApiKey.kind == KeyKind.ADMIN,
            ApiKey.revoked_at.is_(None),
            or_(ApiKey.expires_at.is_(None), ApiKey.expires_at > now),
        )
        .distinct()
        .order_by(ApiKey.user_id)
        .limit(limit)
    )
    return list(rows)


async def is_operator(session: AsyncSession, user_id: uuid.UUID, now: datetime) -> bool:
    """The user holds a live admin key (the CLI makes them: `agora keys create --kind admin`)."""
    found = await session.scalar(
        select(ApiKey.id)
        .where(
            ApiKey.user_id == user_id,
            ApiKey.kind == KeyKind.ADMIN,
            ApiKey.revoked_at.is_(None),
            or_(ApiKey.expires_at.is_(None), ApiKey.expires_at > now),
        )
        .limit(1)
    )
    return found is not None


# ---- identities at providers (accounts/identities.py) ------------------------------------------


async def identity_by_key(session: AsyncSession, issuer: str, subject: str) -> UserIdentity | None:
    return await session.scalar(
        select(UserIdentity).where(UserIdentity.issuer == issuer, UserIdentity.subject == subject)
    )


async def identities_of(session: AsyncSession, user_id: uuid.UUID) -> list[UserIdentity]:
    found = await session.scalars(
        select(UserIdentity)
        .where(UserIdentity.user_id == user_id)
        .order_by(UserIdentity.created_at, UserIdentity.id)
    )
    return list(found)


async def delete_identity(session: AsyncSession, identity: UserIdentity) -> None:
    await session.delete(identity)
    await session.flush()


async def sign_in_rules(
    session: AsyncSession, user_id: uuid.UUID, domain: str
) -> list[tuple[str, str]]:
    """(organization name, provider) of each organization the user belongs to that requires
    members at ``domain`` to sign in through one provider."""
    rows = await session.execute(
        select(Organization.name, Organization.sign_in_provider)
        .join(OrganizationMember, OrganizationMember.organization_id == Organization.id)
        .where(
            OrganizationMember.user_id == user_id,
            Organization.sign_in_domain == domain,
            Organization.sign_in_provider.is_not(None),
        )
        .order_by(Organization.name)
    )
    return [(name, provider) for name, provider in rows.all() if provider]
