"""All SQL of authentication and tenancy: a credential (API key, browser session, OAuth access
token) with what a ``Principal`` needs in one statement, and who belongs to which workspace and
organization (asked by every domain through ``auth.service``)."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import and_, bindparam, exists, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import InstrumentedAttribute
from sqlalchemy.sql.elements import ColumnElement

from agora.kit.reads import Prepared, read_one
from agora.models import (
    ApiKey,
    BrowserSession,
    OAuthGrant,
    OAuthToken,
    Organization,
    OrganizationMember,
    User,
    Workspace,
)


async def personal_workspace(session: AsyncSession, user_id: uuid.UUID) -> Workspace | None:
    return await session.scalar(select(Workspace).where(Workspace.owner_user_id == user_id))


async def workspace_by_id(session: AsyncSession, workspace_id: uuid.UUID) -> Workspace | None:
    return await session.get(Workspace, workspace_id)


async def organization_by_slug(session: AsyncSession, slug: str) -> Organization | None:
    return await session.scalar(select(Organization).where(Organization.slug == slug.lower()))


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


async def memberships_of(session: AsyncSession, user_id: uuid.UUID) -> list[dict[str, Any]]:
    """The organizations the user belongs to (oldest first), each with its workspace and the
    user's role there."""
    rows = await session.execute(
        select(Organization, Workspace.id, OrganizationMember.role)
        .join(OrganizationMember, OrganizationMember.organization_id == Organization.id)
        .join(Workspace, Workspace.organization_id == Organization.id)
        .where(OrganizationMember.user_id == user_id)
        .order_by(Organization.created_at, Organization.id)
        .limit(500)
    )
    return [
        {
            "id": org.id,
            "slug": org.slug,
            "name": org.name,
            "workspace_id": workspace_id,
            "role": role,
            "created_at": org.created_at,
        }
        for org, workspace_id, role in rows
    ]


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


def _membership(user_id: InstrumentedAttribute[uuid.UUID]) -> ColumnElement[bool]:
    """The join to the credential's user's membership of the workspace's organization (outer:
    none in a personal workspace, or for someone who is not a member any more)."""
    return and_(
        OrganizationMember.organization_id == Workspace.organization_id,
        OrganizationMember.user_id == user_id,
    )


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
    .outerjoin(OrganizationMember, _membership(ApiKey.user_id))
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


async def touch_grant(session: AsyncSession, grant_id: uuid.UUID, now: datetime) -> None:
    await session.execute(
        update(OAuthGrant).where(OAuthGrant.id == grant_id).values(last_used_at=now)
    )


@dataclass(frozen=True)
class AccessRow:
    """An access token with what authentication needs of its grant and workspace."""

    token_id: uuid.UUID
    kind: str
    expires_at: datetime
    revoked_at: datetime | None
    grant_id: uuid.UUID
    user_id: uuid.UUID
    workspace_id: uuid.UUID
    scopes: list[str]
    grant_revoked_at: datetime | None
    organization_id: uuid.UUID | None
    workspace_owner_id: uuid.UUID | None
    org_role: str | None
    org_suspended_at: datetime | None = None


async def access_principal(session: AsyncSession, token_hash: str) -> AccessRow | None:
    """The token with this hash, its grant, the grant's workspace and the person's role there:
    one round trip (checked on every request: a revocation applies at once)."""
    row = (
        await session.execute(
            select(
                OAuthToken.id,
                OAuthToken.kind,
                OAuthToken.expires_at,
                OAuthToken.revoked_at,
                OAuthGrant.id,
                OAuthGrant.user_id,
                OAuthGrant.workspace_id,
                OAuthGrant.scopes,
                OAuthGrant.revoked_at,
                Workspace.organization_id,
                Workspace.owner_user_id,
                OrganizationMember.role,
                Organization.suspended_at,
            )
            .join(OAuthGrant, OAuthGrant.id == OAuthToken.grant_id)
            .join(Workspace, Workspace.id == OAuthGrant.workspace_id)
            .outerjoin(Organization, Organization.id == Workspace.organization_id)
            .outerjoin(OrganizationMember, _membership(OAuthGrant.user_id))
            .where(OAuthToken.token_hash == token_hash)
        )
    ).first()
    return None if row is None else AccessRow(*tuple(row))
