"""Live streams: server-sent events that follow rows as they change (a job's events, the bell's
unread count; docs/web.md "Live job status").

A stream is a loop of short reads between waits. Each round reads in its own short read
transaction (never one held across the stream), when the stream's wake-up arrives (a
``kit.background`` topic, keyed — a job id, a person's id — sent after the commit that changed
what it shows) and at the latest after the poll interval:

- Across processes: the process's one ``kit.fanout.Fanout`` (PostgreSQL LISTEN on one
  connection, or one Redis subscription when Redis is configured; shared by all its streams, its
  bells and its dispatcher) turns what any process wrote (API processes, ``agora worker``
  processes) into the wake-up of the streams of that key. While it is down (PostgreSQL or Redis
  restarting, a refused connection) streams poll every ``fallback_seconds``; when it is up,
  only every ``heartbeat_seconds``.
- SQLite (one process): the wake-up is in-process; streams also poll every ``fallback_seconds``.

The stream opens with ``retry``; a comment is sent as a heartbeat when nothing was sent for
``heartbeat_seconds``; it ends when its round says so, or after ``max_seconds`` (the browser
reconnects and resumes). Frames are FastAPI's own (``fastapi.sse``: ``ServerSentEvent`` written
by ``format_sse_event``, answered as an ``EventSourceResponse``).

Slots (docs/security.md, "Limits"): one caller cannot take every stream of a process. Each open
stream is counted against its key (an API key, or a browser session), its user and, for a caller
without a key (none today; a share view would be one), its client address: beyond
``max_per_key``, ``max_per_user`` or ``max_per_address`` the caller over its cap gets 429 with
``Retry-After``. The process-wide ``max_streams`` is the last line: one more is 503
(``Retry-After``).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass, field

from fastapi.sse import EventSourceResponse, ServerSentEvent, format_sse_event
from sqlalchemy.ext.asyncio import AsyncSession
from starlette.types import Receive, Scope, Send

from agora.kit import background
from agora.kit.db import Database
from agora.kit.errors import RateLimited, ServiceUnavailable
from agora.kit.fanout import Fanout

RETRY_MS = 2000
RETRY_OVER_CAP_SECONDS = 5  # a caller over its own cap: a stream of its own must end first
HEARTBEAT = ServerSentEvent(comment="heartbeat")


@dataclass(frozen=True)
class StreamLimits:
    fallback_seconds: float = 2.0  # the poll while no notification can arrive (see above)
    heartbeat_seconds: float = 15.0
    max_seconds: float = 300.0
    max_streams: int = 1000  # open streams per process (the last line)
    max_per_key: int = 10  # per API key or browser session
    max_per_user: int = 25  # per user, all their keys and sessions
    max_per_address: int = 10  # per client address, for callers without a key


Owner = tuple[str, str]  # (kind, id): ("key", …), ("user", …) or ("address", …)


def stream_owners(key: object | None, user: object | None, address: str) -> list[Owner]:
    """The (kind, id) a stream is counted against: its key and user, or, for a caller without
    one, the client's address."""
    if key is None and user is None:
        return [("address", address)]
    return [("key", str(key)), ("user", str(user))]


class Slot:
    """One open stream's place in ``LiveStreams``; released once (whoever ends first: the body's
    ``finally`` or the response, which also covers a body that never started)."""

    def __init__(self, streams: LiveStreams, owners: Sequence[Owner] = ()) -> None:
        self.streams = streams
        self.owners = tuple(owners)
        self.held = True

    def release(self) -> None:
        if self.held:
            self.held = False
            self.streams.open -= 1
            for owner in self.owners:
                self.streams.by_owner[owner] -= 1
                if self.streams.by_owner[owner] <= 0:
                    del self.streams.by_owner[owner]


class LiveStreams:
    """This process's live streams: the process's fan-out (``kit.fanout``), the slots."""

    def __init__(self, db: Database, limits: StreamLimits, fanout: Fanout | None) -> None:
        self.db, self.limits, self.fanout = db, limits, fanout
        self.open = 0
        self.by_owner: Counter[Owner] = Counter()

    def cap(self, kind: str) -> int:
        limits = self.limits
        caps = {
            "key": limits.max_per_key,
            "user": limits.max_per_user,
            "address": limits.max_per_address,
        }
        return caps[kind]

    def acquire(self, owners: Sequence[Owner] = ()) -> Slot:
        """One more open stream for ``owners`` (``stream_owners``): 429 for an owner at its
        cap, then 503 beyond ``max_streams``."""
        for owner in owners:
            if self.by_owner[owner] >= self.cap(owner[0]):
                raise RateLimited(
                    f"Too many open job streams for this {owner[0]} "
                    f"(at most {self.cap(owner[0])}); close one or retry later",
                    headers={"Retry-After": str(RETRY_OVER_CAP_SECONDS)},
                )
        if self.open >= self.limits.max_streams:
            raise ServiceUnavailable(
                "Too many open job streams on this server; retry shortly",
                headers={"Retry-After": str(RETRY_MS // 1000)},
            )
        self.open += 1
        for owner in owners:
            self.by_owner[owner] += 1
        return Slot(self, owners)

    def poll_seconds(self) -> float:
        if self.fanout is not None and self.fanout.listening:
            return self.limits.heartbeat_seconds
        return self.limits.fallback_seconds

    async def start(self) -> None:
        if self.fanout is not None:
            await self.fanout.ensure_started()


class LiveResponse(EventSourceResponse):
    """``text/event-stream`` holding its ``Slot`` until it has been sent or abandoned."""

    def __init__(self, body: AsyncIterator[ServerSentEvent], slot: Slot) -> None:
        super().__init__(
            _encoded(body), headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"}
        )
        self.slot = slot

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            self.slot.release()
            close = getattr(self.body_iterator, "aclose", None)
            if close is not None:  # a client gone between frames: unsubscribe now, not at GC
                with contextlib.suppress(Exception):
                    await close()


async def _encoded(events: AsyncIterator[ServerSentEvent]) -> AsyncIterator[bytes]:
    try:
        async for event in events:
            yield format_sse_event(
                data_str=event.raw_data,
                event=event.event,
                id=event.id,
                retry=event.retry,
                comment=event.comment,
            )
    finally:
        close = getattr(events, "aclose", None)
        if close is not None:
            await close()


@dataclass
class Round:
    """What one read of a stream found: the frames to send, and whether the stream is over."""

    frames: list[ServerSentEvent] = field(default_factory=list)
    done: bool = False


# One read of a stream, in the short read transaction the loop opened for it.
Reader = Callable[[AsyncSession], Awaitable[Round]]


async def open_stream(
    streams: LiveStreams,
    owners: Sequence[Owner],
    *,
    topic: str,
    key: str,
    read: Reader,
) -> LiveResponse:
    """A live stream for ``owners``: its slot first (429 beyond a caller's caps, 503 beyond the
    process's), the listener started, then the response that runs ``read`` between waits for
    ``topic``'s wake-ups of ``key``."""
    slot = streams.acquire(owners)
    try:
        await streams.start()
    except BaseException:
        slot.release()
        raise
    return LiveResponse(follow(streams, topic=topic, key=key, read=read, slot=slot), slot)


async def follow(
    streams: LiveStreams, *, topic: str, key: str, read: Reader, slot: Slot | None = None
) -> AsyncIterator[ServerSentEvent]:
    """The stream's frames: ``retry``, then each round's frames (and heartbeats) until a round
    is ``done`` or ``max_seconds`` have passed."""
    limits = streams.limits
    woken = asyncio.Event()
    unsubscribe = background.subscribe(topic, woken.set, key=key)
    started = last_beat = time.monotonic()
    try:
        yield ServerSentEvent(retry=RETRY_MS)
        while time.monotonic() - started < limits.max_seconds:
            woken.clear()
            async with streams.db.transaction(write=False) as session:
                found = await read(session)
            for frame in found.frames:
                yield frame
            if found.done:
                return
            now = time.monotonic()
            if found.frames:
                last_beat = now
            elif now - last_beat >= limits.heartbeat_seconds:
                yield HEARTBEAT
                last_beat = now
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(woken.wait(), timeout=streams.poll_seconds())
    finally:
        unsubscribe()
        if slot is not None:
            slot.release()
