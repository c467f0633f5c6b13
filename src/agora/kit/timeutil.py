"""One notion of 'now' and one timestamp format for the whole service."""

from __future__ import annotations

from datetime import UTC, datetime
from functools import cache
from zoneinfo import ZoneInfo, available_timezones

UTC_ZONE = ZoneInfo("UTC")


def utcnow() -> datetime:
    return datetime.now(UTC)


def as_utc(value: datetime) -> datetime:
    """SQLite hands back naive datetimes; everything we store is UTC."""
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


def isoformat(value: datetime | None) -> str | None:
    if value is None:
        return None
    return as_utc(value).isoformat().replace("+00:00", "Z")


def parse_isoformat(value: str) -> datetime | None:
    """The inverse of ``isoformat`` (None when ``value`` is not a timestamp)."""
    try:
        return as_utc(datetime.fromisoformat(value.replace("Z", "+00:00")))
    except (ValueError, OverflowError):  # e.g. year 1 with a negative offset
        return None


@cache
def _zone_names() -> frozenset[str]:
    return frozenset(available_timezones()) | {"UTC"}


def zone_names() -> list[str]:
    """Every IANA time zone this machine knows, sorted (a settings page's choices)."""
    return sorted(_zone_names())


def zoned_text(value: datetime, zone: ZoneInfo) -> str:
    """``2026-11-28 10:15 CET``: the time in ``zone``, the zone named (``… UTC`` in UTC)."""
    shown = as_utc(value).astimezone(zone)
    return f"{shown:%Y-%m-%d %H:%M} {shown.tzname()}"


def known_zone(name: str | None) -> ZoneInfo | None:
    """The IANA zone called ``name``, or None: only names from the system's zone list are
    looked up (a name from a cookie or a form never reaches the file system as a path)."""
    if not name or len(name) > 64 or name not in _zone_names():
        return None
    return ZoneInfo(name)
