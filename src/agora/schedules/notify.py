"""How a schedule's owner hears that it paused itself: one function, so the channel can change
in one place (mail through ``kit/mail.py`` today; the in-app notifications of issue 34 when they
are merged). Sent after the transaction commits, never inside it."""

from __future__ import annotations

import structlog
from sqlalchemy.ext.asyncio import AsyncSession

from agora.accounts.mailer import build_sender
from agora.kit.db import on_commit
from agora.kit.mail import Mail
from agora.settings import Settings

log = structlog.get_logger(__name__)


def schedule_paused(
    session: AsyncSession,
    settings: Settings,
    *,
    email: str,
    schedule_id: str,
    name: str,
    reason: str,
) -> None:
    """Tell the owner (after commit) that schedule ``name`` paused itself because ``reason``."""
    url = f"{settings.public_url.rstrip('/')}/schedules/{schedule_id}"
    mail = Mail(
        to=email,
        subject=f"Schedule paused: {name}"[:200],
        text=(
            f"Your schedule {name!r} has been paused.\n\nWhy: {reason}\n\n"
            f"Resume it once the cause is fixed: {url}\n"
        ),
    )

    async def send() -> None:
        try:
            await build_sender(settings).send(mail)
        except Exception as exc:  # a mail server's failure must not undo the pause
            log.warning("schedule_notify_failed", schedule_id=schedule_id, error=str(exc))

    on_commit(session, send)
