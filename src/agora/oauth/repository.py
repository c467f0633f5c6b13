"""All SQL for OAuth: clients, grants, codes and tokens, device requests."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import delete, func, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from agora.models import (
    OAuthClient,
    OAuthDeviceCode,
    OAuthGrant,
    OAuthToken,
    Workspace,
)


async def add(session: AsyncSession, row: Any) -> None:
    session.add(row)
    await session.flush()


async def count_clients(session: AsyncSession) -> int:
    return int(await session.scalar(select(func.count()).select_from(OAuthClient)) or 0)


async def delete_unused_clients(session: AsyncSession, before: datetime, limit: int) -> int:
    """Delete at most ``limit`` clients registered before ``before`` that never got a grant or
    a device code (never used: a sign-in abandoned, or registrations made to fill the table);
    how many."""
    granted = select(OAuthGrant.id).where(OAuthGrant.client_pk == OAuthClient.id).exists()
    polled = select(OAuthDeviceCode.id).where(OAuthDeviceCode.client_pk == OAuthClient.id).exists()
    # SKIP LOCKED (PostgreSQL): a client whose first grant is being written right now (its
    # foreign key holds the client's row) is left for the next round, never deleted with it.
    doomed = (
        select(OAuthClient.id)
        .where(OAuthClient.created_at < before, ~granted, ~polled)
        .limit(limit)
        .with_for_update(of=OAuthClient, skip_locked=True)
    )
    result = await session.execute(
        delete(OAuthClient)
        .where(OAuthClient.id.in_(doomed))
        .execution_options(synchronize_session=False)
    )
    return int(getattr(result, "rowcount", 0) or 0)


async def client_by_client_id(session: AsyncSession, client_id: str) -> OAuthClient | None:
    return await session.scalar(select(OAuthClient).where(OAuthClient.client_id == client_id))


async def client_by_pk(session: AsyncSession, client_pk: uuid.UUID) -> OAuthClient | None:
    return await session.get(OAuthClient, client_pk)


async def grant_by_id(session: AsyncSession, grant_id: uuid.UUID) -> OAuthGrant | None:
    return await session.get(OAuthGrant, grant_id)


async def token_by_hash(session: AsyncSession, token_hash: str) -> OAuthToken | None:
    return await session.scalar(select(OAuthToken).where(OAuthToken.token_hash == token_hash))


async def spend_token(session: AsyncSession, token_id: uuid.UUID, now: datetime) -> bool:
    """Mark a code or refresh token used, once: False when another request already did."""
    result = await session.execute(
        update(OAuthToken)
        .where(OAuthToken.id == token_id, OAuthToken.used_at.is_(None))
        .values(used_at=now)
    )
    return bool(getattr(result, "rowcount", 0))


async def spend_device(session: AsyncSession, device_id: uuid.UUID, now: datetime) -> bool:
    """Mark an approved device code used, once: False when another poll already did."""
    result = await session.execute(
        update(OAuthDeviceCode)
        .where(
            OAuthDeviceCode.id == device_id,
            OAuthDeviceCode.used_at.is_(None),
            OAuthDeviceCode.grant_id.is_not(None),
        )
        .values(used_at=now)
    )
    return bool(getattr(result, "rowcount", 0))


async def revoke_grant(
    session: AsyncSession, grant_id: uuid.UUID, now: datetime, reason: str
) -> bool:
    """The grant and every code and token of it (the whole refresh-token family); whether the
    grant was still active (False: revoked before, nothing new to record)."""
    revoked = await session.execute(
        update(OAuthGrant)
        .where(OAuthGrant.id == grant_id, OAuthGrant.revoked_at.is_(None))
        .values(revoked_at=now, revoked_reason=reason)
    )
    await session.execute(
        update(OAuthToken)
        .where(OAuthToken.grant_id == grant_id, OAuthToken.revoked_at.is_(None))
        .values(revoked_at=now)
    )
    return bool(getattr(revoked, "rowcount", 0))


async def revoke_token(session: AsyncSession, token_id: uuid.UUID, now: datetime) -> None:
    await session.execute(
        update(OAuthToken)
        .where(OAuthToken.id == token_id, OAuthToken.revoked_at.is_(None))
        .values(revoked_at=now)
    )


@dataclass(frozen=True)
class GrantListed:
    grant: OAuthGrant
    client_name: str
    client_uri: str
    workspace_name: str


async def active_grants(session: AsyncSession, user_id: uuid.UUID) -> list[GrantListed]:
    """The person's unrevoked grants, newest first, with their client's and workspace's names."""
    rows = await session.execute(
        select(OAuthGrant, OAuthClient.name, OAuthClient.client_uri, Workspace.name)
        .join(OAuthClient, OAuthClient.id == OAuthGrant.client_pk)
        .join(Workspace, Workspace.id == OAuthGrant.workspace_id)
        .where(OAuthGrant.user_id == user_id, OAuthGrant.revoked_at.is_(None))
        .order_by(OAuthGrant.created_at.desc())
        .limit(200)
    )
    return [GrantListed(g, name, uri, ws) for g, name, uri, ws in rows.all()]


async def device_by_hash(session: AsyncSession, device_hash: str) -> OAuthDeviceCode | None:
    return await session.scalar(
        select(OAuthDeviceCode).where(OAuthDeviceCode.device_hash == device_hash)
    )


async def device_by_user_code(session: AsyncSession, user_code: str) -> OAuthDeviceCode | None:
    return await session.scalar(
        select(OAuthDeviceCode).where(OAuthDeviceCode.user_code == user_code)
    )
