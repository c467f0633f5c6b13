"""Server-sent events of one job (``GET /v1/jobs/{id}/stream``).

Each round reads the job's events after the last one sent in its own short read transaction
(never one held across the stream). A round runs when this process records a job event (the
``signals.JOB_EVENTS`` wake-up, after commit) and at least every ``poll_seconds`` — the polling
fallback that carries events written by other processes (separate workers, other API
processes). ``id:`` is the event's id, so ``Last-Event-ID`` resumes after it. A comment line is
sent as a heartbeat when nothing happened for ``heartbeat_seconds``. The stream ends after the
event that finishes the job, or after ``max_seconds`` (the browser reconnects and resumes).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass

from agora.auth.principal import Principal
from agora.jobs import lifecycle, service, signals
from agora.jobs.schemas import JobEventOut
from agora.kit import background
from agora.kit.db import Database
from agora.models import JobEvent

RETRY_MS = 2000


@dataclass(frozen=True)
class StreamLimits:
    poll_seconds: float = 0.5
    heartbeat_seconds: float = 15.0
    max_seconds: float = 300.0


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


async def job_stream(
    db: Database,
    principal: Principal,
    job_id: str,
    last_event_id: str | None,
    limits: StreamLimits,
) -> AsyncIterator[bytes]:
    """The event stream (the caller checked that the job is visible to ``principal``)."""
    woken = asyncio.Event()
    unsubscribe = background.subscribe(signals.JOB_EVENTS, woken.set)
    started = last_beat = time.monotonic()
    last = last_event_id
    try:
        yield f"retry: {RETRY_MS}\n\n".encode()
        while time.monotonic() - started < limits.max_seconds:
            woken.clear()
            async with db.transaction(write=False) as session:
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
                await asyncio.wait_for(woken.wait(), timeout=limits.poll_seconds)
    finally:
        unsubscribe()
