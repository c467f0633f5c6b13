"""All SQL of notifications: the outbox (delivery log) and the per-user webhook settings."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from sqlalchemy import and_, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from agora.models import NotificationDelivery, User

PENDING, SENDING, DELIVERED, FAILED = "pending", "sending", "delivered", "failed"


async def user(session: AsyncSession, user_id: uuid.UUID) -> User | None:
    return await session.get(User, user_id)


def add(session: AsyncSession, delivery: NotificationDelivery) -> None:
    session.add(delivery)


async def claim(
    session: AsyncSession, *, now: datetime, lease_until: datetime, limit: int
) -> list[uuid.UUID]:
    """Due pending deliveries, and ``sending`` ones whose sender died (lease passed)."""
    due = (
        select(NotificationDelivery.id)
        .where(
            or_(
                and_(
                    NotificationDelivery.state == PENDING,
                    NotificationDelivery.next_attempt_at <= now,
                ),
                and_(
                    NotificationDelivery.state == SENDING,
                    NotificationDelivery.next_attempt_at < now,
                ),
            )
        )
        .order_by(NotificationDelivery.next_attempt_at)
        .limit(limit)
        .with_for_update(skip_locked=True)
    )
    result = await session.execute(
        update(NotificationDelivery)
        .where(NotificationDelivery.id.in_(due.scalar_subquery()))
        .values(state=SENDING, next_attempt_at=lease_until)
        .returning(NotificationDelivery.id)
        .execution_options(synchronize_session=False)
    )
    return list(result.scalars())


async def with_user(
    session: AsyncSession, delivery_id: uuid.UUID
) -> tuple[NotificationDelivery, User] | None:
    row = (
        await session.execute(
            select(NotificationDelivery, User)
            .join(User, User.id == NotificationDelivery.user_id)
            .where(NotificationDelivery.id == delivery_id)
        )
    ).first()
    return (row[0], row[1]) if row else None


async def record(session: AsyncSession, delivery_id: uuid.UUID, **values: Any) -> None:
    await session.execute(
        update(NotificationDelivery)
        .where(NotificationDelivery.id == delivery_id)
        .values(**values)
        .execution_options(synchronize_session=False)
    )


async def recent(
    session: AsyncSession, user_id: uuid.UUID, limit: int
) -> list[NotificationDelivery]:
    result = await session.scalars(
        select(NotificationDelivery)
        .where(NotificationDelivery.user_id == user_id)
        .order_by(NotificationDelivery.created_at.desc(), NotificationDelivery.id.desc())
        .limit(limit)
    )
    return list(result)


async def next_due(session: AsyncSession) -> datetime | None:
    return await session.scalar(
        select(NotificationDelivery.next_attempt_at)
        .where(NotificationDelivery.state.in_((PENDING, SENDING)))
        .order_by(NotificationDelivery.next_attempt_at)
        .limit(1)
    )


async def cancel_pending(session: AsyncSession, user_id: uuid.UUID) -> None:
    """The user's deliveries still waiting for a (re)try are dropped: state ``failed``."""
    await session.execute(
        update(NotificationDelivery)
        .where(
            NotificationDelivery.user_id == user_id,
            NotificationDelivery.state.in_((PENDING, SENDING)),
        )
        .values(state=FAILED, next_attempt_at=None, last_error="cancelled: webhook deleted")
        .execution_options(synchronize_session=False)
    )
