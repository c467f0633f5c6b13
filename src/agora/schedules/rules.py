"""A schedule's rule (a cron expression in a time zone, or an interval; a start and an end) as
a request gives it, checked (400 naming the field), and its occurrences: the next few (the
previews) and the first one from a moment. ``timing.py`` has the pure arithmetic."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from agora.kit.errors import BadRequest
from agora.kit.timeutil import as_utc
from agora.models import Schedule
from agora.schedules import timing
from agora.schedules.schemas import OccurrencesOut, ScheduleRule

PREVIEW_COUNT = 5
EPSILON = timedelta(microseconds=1)


@dataclass(frozen=True)
class Rule:
    cron: str | None
    interval_seconds: int | None
    timezone: str
    starts_at: datetime
    ends_at: datetime | None


def _aware(value: datetime, field: str) -> datetime:
    if value.tzinfo is None:
        raise BadRequest.field(field, "must carry a UTC offset (e.g. 2026-12-01T09:00:00Z)")
    return value.astimezone(UTC)


def clean_rule(
    cron: str | None,
    interval_seconds: int | None,
    timezone: str,
    starts_at: datetime | None,
    ends_at: datetime | None,
    now: datetime,
) -> Rule:
    """The rule from a request, or 400 naming the field."""
    if (cron is None) == (interval_seconds is None):
        raise BadRequest.field("cron", "give exactly one of cron and intervalSeconds")
    try:
        tz = timing.zone(timezone).key
        cleaned_cron = timing.check_cron(cron) if cron is not None else None
        interval = timing.check_interval(interval_seconds) if interval_seconds is not None else None
    except timing.RuleError as exc:
        raise BadRequest.field(exc.field, exc.reason) from exc
    start = _aware(starts_at, "startsAt") if starts_at is not None else now
    end = _aware(ends_at, "endsAt") if ends_at is not None else None
    if end is not None and end <= start:
        raise BadRequest.field("endsAt", "must be after startsAt")
    return Rule(cleaned_cron, interval, tz, start, end)


def upcoming(rule: Rule, now: datetime, count: int = PREVIEW_COUNT) -> list[datetime]:
    """The next ``count`` occurrences at or after ``now``."""
    return timing.next_occurrences(
        cron=rule.cron,
        interval_seconds=rule.interval_seconds,
        timezone=rule.timezone,
        starts_at=rule.starts_at,
        after=now - EPSILON,
        ends_at=rule.ends_at,
        count=count,
    )


def shown(moments: list[datetime], timezone: str) -> OccurrencesOut:
    """Occurrences as the answers show them: in UTC, and again in the schedule's time zone."""
    tz = timing.zone(timezone)
    local = [m.astimezone(tz).isoformat(timespec="seconds") for m in moments]
    return OccurrencesOut(occurrences=moments, timezone=timezone, local=local)


def preview(body: ScheduleRule, now: datetime) -> OccurrencesOut:
    """The next occurrences of a rule before it is saved (nothing is stored)."""
    rule = clean_rule(
        body.cron, body.intervalSeconds, body.timezone, body.startsAt, body.endsAt, now
    )
    return shown(upcoming(rule, now), rule.timezone)


def rule_of(schedule: Schedule) -> Rule:
    return Rule(
        schedule.cron,
        schedule.interval_seconds,
        schedule.timezone,
        as_utc(schedule.starts_at),
        as_utc(schedule.ends_at) if schedule.ends_at else None,
    )


def first_run(rule: Rule, now: datetime) -> datetime | None:
    """The rule's first occurrence at or after ``now`` (None: none before its end)."""
    found = upcoming(rule, now, 1)
    return found[0] if found else None
