"""The bell's live unread count (``GET /notifications/stream``, server-sent events; docs/web.md).

A live stream (``kit.livestreams``) on the job streams' slots: the same per-key, per-user and
per-process slots, and the same per-process PostgreSQL listener, which also listens on
``outbox.INBOX_TOPIC`` (every inbox change NOTIFYs it, keyed by the person's id). A round reads
the count when that person's wake-up arrives and at the latest after the poll interval; a frame
is sent only when the count changed. The stream ends after ``max_seconds``; the browser
reconnects.
"""

from __future__ import annotations

import json

from fastapi.sse import ServerSentEvent
from sqlalchemy.ext.asyncio import AsyncSession

from agora.auth.principal import Principal
from agora.kit.livestreams import LiveResponse, LiveStreams, Round, open_stream, stream_owners
from agora.notifications import repository as repo
from agora.notifications.outbox import INBOX_TOPIC


class _UnreadCount:
    """One round of the bell: the person's unread count, when it changed."""

    def __init__(self, principal: Principal) -> None:
        self.principal = principal
        self.sent: int | None = None

    async def __call__(self, session: AsyncSession) -> Round:
        count = await repo.unread_count(session, self.principal.user_id)
        if count == self.sent:
            return Round()
        self.sent = count
        data = json.dumps({"unreadCount": count})
        return Round([ServerSentEvent(event="unread", raw_data=data)])


async def open_bell(streams: LiveStreams, principal: Principal, address: str) -> LiveResponse:
    """The bell's stream for ``principal``: 429 beyond the caller's stream caps, 503 beyond the
    process's."""
    return await open_stream(
        streams,
        stream_owners(principal.key_id, principal.user_id, address),
        topic=INBOX_TOPIC,
        key=str(principal.user_id),
        read=_UnreadCount(principal),
    )
