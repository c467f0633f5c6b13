"""All SQL of the audit log."""

from __future__ import annotations

import uuid
from datetime import datetime

from sqlalchemy import delete, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from agora.models import AuditEvent


async def add(session: AsyncSession, row: AuditEvent) -> None:
    session.add(row)
    await session.flush()


async def search(
    session: AsyncSession,
    *,
    organization_id: uuid.UUID | None = None,
    action: str | None = None,
    actor_id: uuid.UUID | None = None,
    target_id: str | None = None,
    since: datetime | None = None,
    limit: int,
    offset: int = 0,
) -> tuple[list[AuditEvent], int]:
    """Newest first, with the total count of the filter."""
    conditions = []
    if organization_id is not None:
        conditions.append(AuditEvent.organization_id == organization_id)
    if action:
        conditions.append(AuditEvent.action == action)
    if actor_id is not None:
        conditions.append(AuditEvent.actor_id == actor_id)
    if target_id:
        conditions.append(AuditEvent.target_id == target_id)
    if since is not None:
        conditions.append(AuditEvent.created_at >= since)
    rows = await session.scalars(
        select(AuditEvent)
        .where(*conditions)
        .order_by(AuditEvent.created_at.desc(), AuditEvent.id.desc())
        .limit(limit)
        .offset(offset)
    )
    total = await session.scalar(select(func.count()).select_from(AuditEvent).where(*conditions))
    return list(rows), int(total or 0)


async def prune(session: AsyncSession, before: datetime, limit: int) -> int:
    """The retention sweep, at most ``limit`` rows: the only delete of the audit log."""
    doomed = select(AuditEvent.id).where(AuditEvent.created_at < before).limit(limit)
    result = await session.execute(
        delete(AuditEvent)
        .where(AuditEvent.id.in_(doomed))
        .execution_options(synchronize_session=False)
    )
    return int(getattr(result, "rowcount", 0) or 0)
