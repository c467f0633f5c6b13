"""All SQL for accounts: users, organizations, memberships, workspaces, API keys, tokens and
browser sessions."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import and_, bindparam, exists, func, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from agora.kit.reads import Prepared, read_one
from agora.models import (
    AccountToken,
    ApiKey,
    BrowserSession,
    Organization,
    OrganizationMember,
    User,
    Workspace,
)
from agora.models.rows import UserColumns


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


async def personal_workspace(session: AsyncSession, user_id: uuid.UUID) -> Workspace | None:
    return await session.scalar(select(Workspace).where(Workspace.owner_user_id == user_id))


async def workspace_by_id(session: AsyncSession, workspace_id: uuid.UUID) -> Workspace | None:
    return await session.get(Workspace, workspace_id)


async def organization_by_slug(session: AsyncSession, slug: str) -> Organization | None:
    return await session.scalar(select(Organization).where(Organization.slug == slug.lower()))


async def organization_by_id(session: AsyncSession, org_id: uuid.UUID) -> Organization | None:
    return await session.get(Organization, org_id)


async def organization_workspace(session: AsyncSession, org_id: uuid.UUID) -> Workspace | None:
    return await session.scalar(select(Workspace).where(Workspace.organization_id == org_id))


async def is_member(session: AsyncSession, user_id: uuid.UUID, workspace_id: uuid.UUID) -> bool:
    """Owner of a personal workspace, or member of the organization that owns the workspace."""
    org_member = exists().where(
        OrganizationMember.organization_id == Workspace.organization_id,
        OrganizationMember.user_id == user_id,
    )
    query = select(Workspace.id).where(
        Workspace.id == workspace_id, or_(Workspace.owner_user_id == user_id, org_member)
    )
    return (await session.scalar(query)) is not None


async def is_org_member(session: AsyncSession, user_id: uuid.UUID, org_id: uuid.UUID) -> bool:
    query = select(OrganizationMember.user_id).where(
        OrganizationMember.organization_id == org_id, OrganizationMember.user_id == user_id
    )
    return (await session.scalar(query)) is not None


async def org_standing(
    session: AsyncSession, user_id: uuid.UUID, org_id: uuid.UUID
) -> tuple[str | None, bool]:
    """The user's role in the organization (None: not a member) and whether an operator
    suspended the organization: one round trip."""
    row = (
        await session.execute(
            select(OrganizationMember.role, Organization.suspended_at)
            .select_from(Organization)
            .outerjoin(
                OrganizationMember,
                and_(
                    OrganizationMember.organization_id == Organization.id,
                    OrganizationMember.user_id == user_id,
                ),
            )
            .where(Organization.id == org_id)
        )
    ).first()
    return (None, False) if row is None else (row[0], row[1] is not None)


async def org_role(session: AsyncSession, user_id: uuid.UUID, org_id: uuid.UUID) -> str | None:
    query = select(OrganizationMember.role).where(
        OrganizationMember.organization_id == org_id, OrganizationMember.user_id == user_id
    )
    role: str | None = await session.scalar(query)
    return role


async def api_key_with_user(session: AsyncSession, key_hash: str) -> tuple[ApiKey, User] | None:
    row = (
        await session.execute(
            select(ApiKey, User)
            .join(User, User.id == ApiKey.user_id)
            .where(ApiKey.key_hash == key_hash)
        )
    ).first()
    return (row[0], row[1]) if row else None


@dataclass(frozen=True)
class KeyPrincipalRow:
    """What authentication needs of a key, its default workspace and the user's role in that
    workspace's organization included (one statement)."""

    key_id: uuid.UUID
    key_hash: str
    user_id: uuid.UUID
    kind: str
    scopes: list[str]
    revoked_at: datetime | None
    expires_at: datetime | None
    default_workspace_id: uuid.UUID
    organization_id: uuid.UUID | None
    org_role: str | None
    # The personal workspace's owner (None for an organization's workspace).
    workspace_owner_id: uuid.UUID | None = None
    # The default workspace's organization is suspended by an operator (its workspace refuses).
    org_suspended: bool = False


_KEY_PRINCIPAL = Prepared(
    select(
        ApiKey.id,
        ApiKey.key_hash,
        ApiKey.user_id,
        ApiKey.kind,
        ApiKey.scopes,
        ApiKey.revoked_at,
        ApiKey.expires_at,
        ApiKey.default_workspace_id,
        Workspace.organization_id,
        OrganizationMember.role,
        Workspace.owner_user_id,
        Organization.suspended_at,
    )
    .join(Workspace, Workspace.id == ApiKey.default_workspace_id)
    .outerjoin(Organization, Organization.id == Workspace.organization_id)
    .outerjoin(
        OrganizationMember,
        and_(
            OrganizationMember.organization_id == Workspace.organization_id,
            OrganizationMember.user_id == ApiKey.user_id,
        ),
    )
    .where(ApiKey.key_hash == bindparam("key_hash"))
)


async def key_principal(session: AsyncSession, key_hash: str) -> KeyPrincipalRow | None:
    """The key with this hash, its default workspace's organization and the key owner's role
    there: ONE round trip."""
    row = await read_one(session, _KEY_PRINCIPAL, key_hash=key_hash)
    if row is None:
        return None
    return KeyPrincipalRow(
        key_id=row[0],
        key_hash=row[1],
        user_id=row[2],
        kind=row[3],
        scopes=row[4],
        revoked_at=row[5],
        expires_at=row[6],
        default_workspace_id=row[7],
        organization_id=row[8],
        org_role=row[9],
        workspace_owner_id=row[10],
        org_suspended=row[11] is not None,
    )


async def api_key_by_id(session: AsyncSession, key_id: uuid.UUID) -> ApiKey | None:
    return await session.get(ApiKey, key_id)


async def touch_api_key(
    session: AsyncSession, key_id: uuid.UUID, now: datetime, min_interval: timedelta
) -> None:
    """Write ``last_used_at`` unless it was written less than ``min_interval`` ago."""
    await session.execute(
        update(ApiKey)
        .where(
            ApiKey.id == key_id,
            or_(ApiKey.last_used_at.is_(None), ApiKey.last_used_at < now - min_interval),
        )
        .values(last_used_at=now)
    )


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


async def keys_of_user(session: AsyncSession, user_id: uuid.UUID) -> list[ApiKey]:
    result = await session.scalars(
        select(ApiKey).where(ApiKey.user_id == user_id).order_by(ApiKey.created_at, ApiKey.id)
    )
    return list(result)


async def count_users(session: AsyncSession) -> int:
    from sqlalchemy import func

    return int(await session.scalar(select(func.count()).select_from(User)) or 0)


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
