"""Server-sent events of one job (``GET /v1/jobs/{id}/stream``; docs/web.md "Live job status").

Each round reads the job's events after the last one sent in its own short read transaction
(never one held across the stream). A round runs when the job's wake-up arrives
(``signals.JOB_EVENTS`` keyed by the job id, after the commit that recorded an event) and at the
latest after the poll interval:

- PostgreSQL: every event NOTIFYs ``agora_job_events`` with the job id; one ``kit.listen.Listener``
  per process (``JobStreams``, shared by all its streams) turns that into the wake-up of that
  job's streams, whichever process wrote it (API processes, ``agora worker`` processes). While
  the listener is down (PostgreSQL restarting, a refused connection) streams poll every
  ``fallback_seconds``; when it is up, only every ``heartbeat_seconds``.
- SQLite (one process): the wake-up is in-process; streams also poll every ``fallback_seconds``.

``id:`` is the event's id, so ``Last-Event-ID`` resumes after it. A comment line is sent as a
heartbeat when nothing happened for ``heartbeat_seconds``. The stream ends after the event that
finishes the job, or after ``max_seconds`` (the browser reconnects and resumes).

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
import json
import time
from collections import Counter
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass

from fastapi.responses import StreamingResponse
from starlette.types import Receive, Scope, Send

from agora.auth.principal import Principal
from agora.jobs import lifecycle, service, signals
from agora.jobs.schemas import JobEventOut
from agora.kit import background
from agora.kit.db import Database
from agora.kit.errors import RateLimited, ServiceUnavailable
from agora.kit.ids import parse_uuid
from agora.kit.listen import Listener
from agora.models import JobEvent

RETRY_MS = 2000
RETRY_OVER_CAP_SECONDS = 5  # a caller over its own cap: a stream of its own must end first


@dataclass(frozen=True)
class StreamLimits:
    fallback_seconds: float = 2.0  # the poll while no notification can arrive (see above)
    heartbeat_seconds: float = 15.0
    max_seconds: float = 300.0
    max_streams: int = 1000  # open streams per process (the last line)
    max_per_key: int = 10  # per API key or browser session
    max_per_user: int = 25  # per user, all their keys and sessions
    max_per_address: int = 10  # per client address, for callers without a key


def stream_owners(principal: Principal | None, address: str) -> list[tuple[str, str]]:
    """The (kind, id) a stream is counted against: key and user, or the client's address."""
    if principal is None:
        return [("address", address)]
    return [("key", str(principal.key_id)), ("user", str(principal.user_id))]


class Slot:
    """One open stream's place in ``JobStreams``; released once (whoever ends first: the body's
    ``finally`` or the response, which also covers a body that never started)."""

    def __init__(self, streams: JobStreams, owners: Sequence[tuple[str, str]] = ()) -> None:
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


class JobStreams:
    """This process's job streams: the shared listener (PostgreSQL), the open-stream limit."""

    def __init__(
        self, db: Database, limits: StreamLimits, also_listen: tuple[str, ...] = ()
    ) -> None:
        """``also_listen``: more wake-up topics for streams built on these slots (the bell)."""
        self.db, self.limits = db, limits
        channels = (signals.JOB_EVENTS, *also_listen)
        self.listener = None if db.is_sqlite else Listener(db.url, channels)
        self.open = 0
        self.by_owner: Counter[tuple[str, str]] = Counter()

    def cap(self, kind: str) -> int:
        limits = self.limits
        caps = {
            "key": limits.max_per_key,
            "user": limits.max_per_user,
            "address": limits.max_per_address,
        }
        return caps[kind]

    def acquire(self, owners: Sequence[tuple[str, str]] = ()) -> Slot:
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
        if self.listener is not None and self.listener.listening:
            return self.limits.heartbeat_seconds
        return self.limits.fallback_seconds

    async def start(self) -> None:
        if self.listener is not None:
            await self.listener.ensure_started()

    async def stop(self) -> None:
        if self.listener is not None:
            await self.listener.stop()


class StreamResponse(StreamingResponse):
    """``text/event-stream`` holding its ``Slot`` until it has been sent or abandoned."""

    def __init__(self, body: AsyncIterator[bytes], slot: Slot) -> None:
        super().__init__(
            body,
            media_type="text/event-stream",
            headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
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


def _frame(event: JobEvent) -> bytes:
    payload = JobEventOut.model_validate(event).model_dump(mode="json", by_alias=True)
    name = "status" if event.type == "status_changed" else event.type
    if event.to_status == lifecycle.INPUT_REQUIRED:
        name = "input_requested"
    elif event.to_status in lifecycle.FINAL_STATUSES:
        name = "result"
    data = json.dumps(payload, separators=(",", ":"))
    return f"id: {event.id}\nevent: {name}\ndata: {data}\n\n".encode()


def _after(events: list[JobEvent], last_id: str | None) -> list[JobEvent]:
    if not last_id:
        return events
    for index, event in enumerate(events):
        if str(event.id) == last_id:
            return events[index + 1 :]
    return events  # an unknown id: send everything (ids are stable, so the client dedupes)


async def open_stream(
    streams: JobStreams,
    principal: Principal,
    job_id: str,
    last_event_id: str | None,
    address: str = "unknown",
) -> StreamResponse:
    """The stream's response (the caller checked that the job is visible to ``principal``);
    429 beyond the caller's caps, 503 beyond the per-process limit."""
    return await open_slotted(
        streams,
        principal,
        address,
        lambda slot: job_stream(streams, principal, job_id, last_event_id, slot),
    )


async def open_slotted(
    streams: JobStreams,
    principal: Principal,
    address: str,
    body: Callable[[Slot], AsyncIterator[bytes]],
) -> StreamResponse:
    """A stream on these slots (a job's, the bell's): its slot first (429 beyond the caller's
    caps, 503 beyond the process's), the listener started, then ``body(slot)`` as the response."""
    slot = streams.acquire(stream_owners(principal, address))
    try:
        await streams.start()
    except BaseException:
        slot.release()
        raise
    return StreamResponse(body(slot), slot)


async def job_stream(
    streams: JobStreams,
    principal: Principal,
    job_id: str,
    last_event_id: str | None,
    slot: Slot | None = None,
) -> AsyncIterator[bytes]:
    """The event stream (the caller checked that the job is visible to ``principal``)."""
    limits = streams.limits
    woken = asyncio.Event()
    key = str(parse_uuid(job_id) or job_id)  # the job id as signals.job_event sends it
    unsubscribe = background.subscribe(signals.JOB_EVENTS, woken.set, key=key)
    started = last_beat = time.monotonic()
    last = last_event_id
    try:
        yield f"retry: {RETRY_MS}\n\n".encode()
        while time.monotonic() - started < limits.max_seconds:
            woken.clear()
            async with streams.db.transaction(write=False) as session:
                every = await service.job_events(session, principal, job_id)
            events = _after(every, last)
            for event in events:
                yield _frame(event)
                last = str(event.id)
            if any(event.to_status in lifecycle.FINAL_STATUSES for event in every):
                return
            now = time.monotonic()
            if events:
                last_beat = now
            elif now - last_beat >= limits.heartbeat_seconds:
                yield b": heartbeat\n\n"
                last_beat = now
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(woken.wait(), timeout=streams.poll_seconds())
    finally:
        unsubscribe()
        if slot is not None:
            slot.release()
