"""All SQL for identity and tenancy."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import and_, bindparam, exists, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from agora.kit.reads import Prepared, read_one
from agora.models import ApiKey, Organization, OrganizationMember, User, Workspace
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
    )
    .join(Workspace, Workspace.id == ApiKey.default_workspace_id)
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
