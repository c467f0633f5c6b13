"""Server-sent events of one job (``GET /v1/jobs/{id}/stream``; docs/web.md "Live job status").

A live stream (``kit.livestreams``: the slots, the per-process listener, the loop of short reads
between waits): a round reads the job's events after the last one sent, woken by
``signals.JOB_EVENTS`` keyed by the job id (after the commit that recorded an event). ``id:`` is
the event's id, so ``Last-Event-ID`` resumes after it. The stream ends after the event that
finishes the job.
"""

from __future__ import annotations

import json

from fastapi.sse import ServerSentEvent
from sqlalchemy.ext.asyncio import AsyncSession

from agora.auth.principal import Principal
from agora.jobs import lifecycle, service, signals
from agora.jobs.schemas import JobEventOut
from agora.kit.ids import parse_uuid
from agora.kit.livestreams import (
    LiveResponse,
    LiveStreams,
    Round,
    StreamLimits,
    open_stream,
    stream_owners,
)
from agora.models import JobEvent

__all__ = ["JobStreams", "StreamLimits", "open_job_stream"]


class JobStreams(LiveStreams):
    """This process's live streams of jobs (and, on the same slots, the bell's), woken by the
    process's fan-out (``kit.fanout``), which carries ``CHANNELS``."""

    CHANNELS = (signals.JOB_EVENTS,)


def _frame(event: JobEvent) -> ServerSentEvent:
    payload = JobEventOut.model_validate(event).model_dump(mode="json", by_alias=True)
    name = "status" if event.type == "status_changed" else event.type
    if event.to_status == lifecycle.INPUT_REQUIRED:
        name = "input_requested"
    elif event.to_status in lifecycle.FINAL_STATUSES:
        name = "result"
    data = json.dumps(payload, separators=(",", ":"))
    return ServerSentEvent(id=str(event.id), event=name, raw_data=data)


def _after(events: list[JobEvent], last_id: str | None) -> list[JobEvent]:
    if not last_id:
        return events
    for index, event in enumerate(events):
        if str(event.id) == last_id:
            return events[index + 1 :]
    return events  # an unknown id: send everything (ids are stable, so the client dedupes)


class _JobEvents:
    """One round of a job's stream: the events after the last one sent."""

    def __init__(self, principal: Principal, job_id: str, last_event_id: str | None) -> None:
        self.principal, self.job_id, self.last = principal, job_id, last_event_id

    async def __call__(self, session: AsyncSession) -> Round:
        every = await service.job_events(session, self.principal, self.job_id)
        events = _after(every, self.last)
        if events:
            self.last = str(events[-1].id)
        return Round(
            [_frame(event) for event in events],
            done=any(event.to_status in lifecycle.FINAL_STATUSES for event in every),
        )


async def open_job_stream(
    streams: LiveStreams,
    principal: Principal,
    job_id: str,
    last_event_id: str | None,
    address: str = "unknown",
) -> LiveResponse:
    """The stream's response (the caller checked that the job is visible to ``principal``);
    429 beyond the caller's caps, 503 beyond the per-process limit."""
    return await open_stream(
        streams,
        stream_owners(principal.key_id, principal.user_id, address),
        topic=signals.JOB_EVENTS,
        key=str(parse_uuid(job_id) or job_id),  # the job id as signals.job_event sends it
        read=_JobEvents(principal, job_id, last_event_id),
    )
