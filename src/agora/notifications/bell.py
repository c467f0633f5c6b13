"""The bell's live unread count (``GET /notifications/stream``, server-sent events; docs/web.md).

It rides on the job streams' machinery (``jobs.stream.JobStreams``): the same per-key, per-user
and per-process slots, and the same per-process PostgreSQL listener, which also listens on
``outbox.INBOX_TOPIC`` (every inbox change NOTIFYs it, keyed by the person's id). A round reads
the count in its own short read transaction (never one held across the stream) when that
person's wake-up arrives and at the latest after the poll interval; a frame is sent only when
the count changed. The stream ends after ``max_seconds``; the browser reconnects.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import AsyncIterator

from agora.auth.principal import Principal
from agora.jobs.stream import RETRY_MS, JobStreams, Slot, StreamResponse, open_slotted
from agora.kit import background
from agora.notifications import repository as repo
from agora.notifications.outbox import INBOX_TOPIC


def _frame(count: int) -> bytes:
    return f"event: unread\ndata: {json.dumps({'unreadCount': count})}\n\n".encode()


async def open_bell(streams: JobStreams, principal: Principal, address: str) -> StreamResponse:
    """The bell's stream for ``principal``: 429 beyond the caller's stream caps, 503 beyond the
    process's."""
    return await open_slotted(
        streams, principal, address, lambda slot: bell_stream(streams, principal, slot)
    )


async def bell_stream(
    streams: JobStreams, principal: Principal, slot: Slot | None = None
) -> AsyncIterator[bytes]:
    limits = streams.limits
    woken = asyncio.Event()
    unsubscribe = background.subscribe(INBOX_TOPIC, woken.set, key=str(principal.user_id))
    started = last_beat = time.monotonic()
    sent: int | None = None
    try:
        yield f"retry: {RETRY_MS}\n\n".encode()
        while time.monotonic() - started < limits.max_seconds:
            woken.clear()
            async with streams.db.transaction(write=False) as session:
                count = await repo.unread_count(session, principal.user_id)
            now = time.monotonic()
            if count != sent:
                yield _frame(count)
                sent, last_beat = count, now
            elif now - last_beat >= limits.heartbeat_seconds:
                yield b": heartbeat\n\n"
                last_beat = now
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(woken.wait(), timeout=streams.poll_seconds())
    finally:
        unsubscribe()
        if slot is not None:
            slot.release()
