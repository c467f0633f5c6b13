"""One notion of 'now' and one timestamp format for the whole service."""

from __future__ import annotations

from datetime import UTC, datetime


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
