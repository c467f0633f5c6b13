"""Schedule endpoints (key family: Envelope A, Simple errors). Decisions: docs/schedules.md."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

from fastapi import Depends, Path, Query, Request

from agora.auth.dependencies import JobsWriter, Reader, SessionDep
from agora.kit.envelopes import EnvelopeA
from agora.kit.families import key_router
from agora.kit.openapi import errors
from agora.kit.timeutil import utcnow
from agora.schedules import rules, service
from agora.schedules.schemas import (
    OccurrencesOut,
    RunPage,
    ScheduleCreate,
    ScheduleOut,
    SchedulePage,
    ScheduleRule,
    ScheduleRunOut,
    ScheduleUpdate,
)

router = key_router(tags=["schedules"])

# A schedule's id in the path; a malformed id answers the same 404 as an unknown one, so it stays
# a string here and the service parses it.
ScheduleId = Annotated[str, Path(alias="scheduleId", max_length=100)]
CursorQuery = Annotated[
    str | None, Query(max_length=100, description="`nextCursor` of the previous page.")
]
LimitQuery = Annotated[int | None, Query(ge=1, le=100, description="Page size (default 20).")]


async def _now(request: Request) -> datetime:
    """The time the rules use: ``app.state.schedule_clock`` when a test moves the clock."""
    clock = getattr(request.app.state, "schedule_clock", None)
    return clock() if clock is not None else utcnow()


Now = Annotated[datetime, Depends(_now)]


def _one(schedule: object) -> EnvelopeA[ScheduleOut]:
    return EnvelopeA[ScheduleOut](data=ScheduleOut.model_validate(schedule))


@router.get("/schedules/preview", operation_id="previewSchedule")
async def preview_schedule(
    principal: Reader,
    now: Now,
    cron: Annotated[str | None, Query(max_length=200, examples=["0 9 * * MON"])] = None,
    intervalSeconds: Annotated[int | None, Query(ge=1)] = None,
    timezone: Annotated[str, Query(max_length=64)] = "UTC",
    startsAt: Annotated[datetime | None, Query()] = None,
    endsAt: Annotated[datetime | None, Query()] = None,
) -> EnvelopeA[OccurrencesOut]:
    """The next five occurrences of a rule, before saving it (nothing is stored)."""
    rule = ScheduleRule(
        cron=cron, intervalSeconds=intervalSeconds, timezone=timezone, startsAt=startsAt,
        endsAt=endsAt,
    )  # fmt: skip
    return EnvelopeA[OccurrencesOut](data=rules.preview(rule, now))


@router.post("/schedules", status_code=201, operation_id="createSchedule")
async def create_schedule(
    body: ScheduleCreate, session: SessionDep, principal: JobsWriter, now: Now
) -> EnvelopeA[ScheduleOut]:
    """Run an agent with this input on a cron expression (in a time zone) or an interval. Each
    run is a job created as you, holding its credits like any job."""
    return _one(await service.create_schedule(session, principal, body, now=now))


@router.get("/schedules", operation_id="listSchedules")
async def list_schedules(
    session: SessionDep, principal: Reader, cursor: CursorQuery = None, limit: LimitQuery = None
) -> SchedulePage:
    """Your schedules in the current workspace, newest first."""
    rows, next_cursor = await service.list_schedules(session, principal, cursor=cursor, limit=limit)
    return SchedulePage(data=[ScheduleOut.model_validate(r) for r in rows], nextCursor=next_cursor)


@router.get("/schedules/{scheduleId}", operation_id="getSchedule")
async def get_schedule(
    schedule_id: ScheduleId, session: SessionDep, principal: Reader
) -> EnvelopeA[ScheduleOut]:
    """One of your schedules."""
    return _one(await service.get_schedule(session, principal, schedule_id))


@router.patch("/schedules/{scheduleId}", operation_id="updateSchedule", openapi_extra=errors(409))
async def update_schedule(
    schedule_id: ScheduleId, body: ScheduleUpdate, session: SessionDep, principal: JobsWriter,
    now: Now,
) -> EnvelopeA[ScheduleOut]:  # fmt: skip
    """Change a schedule; a changed rule restarts its occurrences from now."""
    return _one(await service.update_schedule(session, principal, schedule_id, body, now=now))


@router.post(
    "/schedules/{scheduleId}/pause", operation_id="pauseSchedule", openapi_extra=errors(409)
)
async def pause_schedule(
    schedule_id: ScheduleId, session: SessionDep, principal: JobsWriter, now: Now
) -> EnvelopeA[ScheduleOut]:
    """Stop running until resumed."""
    return _one(await service.pause(session, principal, schedule_id, now=now))


@router.post(
    "/schedules/{scheduleId}/resume", operation_id="resumeSchedule", openapi_extra=errors(409)
)
async def resume_schedule(
    schedule_id: ScheduleId, session: SessionDep, principal: JobsWriter, now: Now
) -> EnvelopeA[ScheduleOut]:
    """Run again from the next occurrence after now (those that fell while paused are not run)."""
    return _one(await service.resume(session, principal, schedule_id, now=now))


@router.post("/schedules/{scheduleId}/end", operation_id="endSchedule")
async def end_schedule(
    schedule_id: ScheduleId, session: SessionDep, principal: JobsWriter, now: Now
) -> EnvelopeA[ScheduleOut]:
    """End the schedule for good (its runs stay listed)."""
    return _one(await service.end(session, principal, schedule_id, now=now))


@router.get("/schedules/{scheduleId}/occurrences", operation_id="getScheduleOccurrences")
async def schedule_occurrences(
    schedule_id: ScheduleId, session: SessionDep, principal: Reader, now: Now
) -> EnvelopeA[OccurrencesOut]:
    """The next five occurrences (none once ended)."""
    _schedule, found = await service.occurrences(session, principal, schedule_id, now=now)
    return EnvelopeA[OccurrencesOut](data=found)


@router.get("/schedules/{scheduleId}/runs", operation_id="listScheduleRuns")
async def schedule_runs(
    schedule_id: ScheduleId,
    session: SessionDep,
    principal: Reader,
    cursor: CursorQuery = None,
    limit: LimitQuery = None,
) -> RunPage:
    """Every recorded occurrence, newest first: its job, or why it was skipped or missed."""
    rows, next_cursor = await service.list_runs(
        session, principal, schedule_id, cursor=cursor, limit=limit
    )
    return RunPage(data=[ScheduleRunOut.model_validate(r) for r in rows], nextCursor=next_cursor)
