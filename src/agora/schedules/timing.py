"""When a schedule's occurrences fall: cron expressions (``cronsim``, evaluated in the schedule's
IANA time zone through ``zoneinfo``) or a fixed interval in absolute time. Pure functions; every
time in and out is an aware datetime, returned in UTC.

DST (docs/schedules.md, "Time zones"): cronsim follows Debian cron. On a spring-forward day a
time in the skipped hour (02:30 in Europe/Berlin) runs once, at the first instant after the gap
(03:00 local); on a fall-back day a time in the repeated hour runs once, at its first
occurrence. Hourly and finer expressions run in both copies of the repeated hour (they are
defined per hour of UTC-offset wall time, as cron does). Intervals ignore wall time.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from cronsim import CronSim, CronSimError

from agora.kit.timeutil import known_zone

MIN_INTERVAL_SECONDS = 60


class RuleError(ValueError):
    """A cron expression, interval or time zone that cannot be used; ``field`` names it."""

    def __init__(self, field: str, reason: str) -> None:
        super().__init__(reason)
        self.field, self.reason = field, reason


def zone(name: str) -> ZoneInfo:
    found = known_zone(name)
    if found is None:
        raise RuleError("timezone", f"{name!r} is not an IANA time zone (e.g. Europe/Berlin)")
    return found


def check_cron(expression: str) -> str:
    expression = " ".join(expression.split())
    if len(expression.split(" ")) != 5:
        raise RuleError("cron", "must have five fields: minute hour day-of-month month weekday")
    try:
        CronSim(expression, datetime(2026, 1, 1, tzinfo=UTC))
    except CronSimError as exc:
        raise RuleError("cron", f"is not a valid cron expression: {exc}") from exc
    return expression


def check_interval(seconds: int) -> int:
    if seconds < MIN_INTERVAL_SECONDS:
        raise RuleError("intervalSeconds", f"must be at least {MIN_INTERVAL_SECONDS}")
    if seconds > 366 * 86400:
        raise RuleError("intervalSeconds", "must be at most a year")
    return seconds


def occurrences_after(
    *,
    cron: str | None,
    interval_seconds: int | None,
    timezone: str,
    starts_at: datetime,
    after: datetime | None,
) -> Iterator[datetime]:
    """Occurrences (UTC) at or after ``starts_at`` and strictly after ``after`` (when given),
    in order, without end (the caller bounds it)."""
    start = starts_at.astimezone(UTC)
    if interval_seconds is not None:
        step = timedelta(seconds=interval_seconds)
        if after is None or after < start:
            current = start
        else:
            current = start + step * ((after - start) // step + 1)
        while True:
            yield current
            current += step
    assert cron is not None
    tz = zone(timezone)
    # cronsim yields times strictly after its start: begin one microsecond before starts_at.
    begin = start - timedelta(microseconds=1)
    if after is not None and after >= begin:
        begin = after.astimezone(UTC)
    for moment in CronSim(cron, begin.astimezone(tz)):
        yield moment.astimezone(UTC)


def next_occurrences(
    *,
    cron: str | None,
    interval_seconds: int | None,
    timezone: str,
    starts_at: datetime,
    after: datetime | None,
    ends_at: datetime | None,
    count: int,
) -> list[datetime]:
    out: list[datetime] = []
    for moment in occurrences_after(
        cron=cron,
        interval_seconds=interval_seconds,
        timezone=timezone,
        starts_at=starts_at,
        after=after,
    ):
        if (ends_at is not None and moment > ends_at) or len(out) >= count:
            break
        out.append(moment)
    return out


def period(moment: datetime, timezone: str) -> str:
    """The budget month of an occurrence: ``YYYY-MM`` in the schedule's time zone."""
    return f"{moment.astimezone(zone(timezone)):%Y-%m}"
