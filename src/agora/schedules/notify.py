"""How a schedule's owner hears that it paused itself: the ``schedule.paused`` notification
(in-app inbox and mail by default; the person's preferences decide, docs/notifications.md),
written in the pausing transaction, so a rolled-back pause tells nobody."""

from __future__ import annotations

import uuid

from sqlalchemy.ext.asyncio import AsyncSession

from agora.notifications import notify


async def schedule_paused(
    session: AsyncSession, *, user_id: uuid.UUID, schedule_id: uuid.UUID, name: str, reason: str
) -> None:
    """Tell the owner that schedule ``name`` paused itself because ``reason``."""
    await notify(
        session,
        user_id=user_id,
        kind="schedule.paused",
        subject_ref=f"schedule:{schedule_id}",
        data={
            "scheduleId": str(schedule_id),
            "name": name,
            "reason": reason,
            "message": f"Why: {reason}. Resume it once the cause is fixed.",
        },
    )
