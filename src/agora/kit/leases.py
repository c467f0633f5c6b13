"""The one way a work queue claims its due rows (jobs, schedules, notification deliveries).

``FOR UPDATE SKIP LOCKED`` lets many workers claim at once without waiting on each other or
taking the same row (PostgreSQL; SQLite has one writer and ignores it), and the claim is one
``UPDATE … WHERE id IN (…) RETURNING id`` statement.
"""

from __future__ import annotations

import uuid
from typing import Any

from sqlalchemy import ColumnElement, select, update
from sqlalchemy.ext.asyncio import AsyncSession


async def claim_due(
    session: AsyncSession,
    model: Any,
    *,
    due: ColumnElement[bool],
    order_by: Any,
    limit: int,
    values: dict[str, Any],
) -> list[uuid.UUID]:
    """Set ``values`` on at most ``limit`` due rows of ``model`` (oldest ``order_by`` first) that
    no other worker holds; their ids."""
    claimable = (
        select(model.id)
        .where(due)
        .order_by(order_by)
        .limit(limit)
        .with_for_update(skip_locked=True)
    )
    result = await session.execute(
        update(model)
        .where(model.id.in_(claimable.scalar_subquery()))
        .values(**values)
        .returning(model.id)
        .execution_options(synchronize_session=False)
    )
    return list(result.scalars())
