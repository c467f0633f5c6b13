"""Reading one page of any cursor-paged list of Agora, and the job stream's frames.

The lists page in a few shapes (docs/jobs.md, docs/agents.md, docs/history.md, docs/files.md):
items in ``data``, ``items`` or ``data.items``; the next cursor — always the server's signed
value, sent back untouched — in ``pagination.nextCursor``, ``meta.pagination.nextCursor``,
``nextCursor``, ``data.nextCursor`` or (the history feed) ``pagination.cursor``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

FINAL_STATUSES = frozenset({"COMPLETED", "FAILED", "CANCELLED"})
SETTLED_STATUSES = FINAL_STATUSES | {"INPUT_REQUIRED"}


def page_of(body: Any) -> tuple[list[dict[str, Any]], str | None]:
    """The items of one page and the cursor of the next (None on the last page)."""
    if not isinstance(body, dict):
        return [], None
    data = body.get("data")
    if isinstance(data, dict):  # {data: {items, nextCursor}} (notifications)
        return list(data.get("items") or []), _text(data.get("nextCursor"))
    items = data if isinstance(data, list) else body.get("items") or []
    meta = body.get("meta") if isinstance(body.get("meta"), dict) else {}
    for pagination in (body.get("pagination"), (meta or {}).get("pagination")):
        if isinstance(pagination, dict):
            if "nextCursor" in pagination:
                return list(items), _text(pagination.get("nextCursor"))
            if "hasMore" in pagination and "cursor" in pagination:  # the history feed
                more = bool(pagination.get("hasMore"))
                return list(items), _text(pagination.get("cursor")) if more else None
    return list(items), _text(body.get("nextCursor"))


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


@dataclass(frozen=True)
class Event:
    """One server-sent event of ``GET /v1/jobs/{id}/stream``."""

    id: str | None
    event: str
    data: Any


class EventParser:
    """Server-sent events from lines (``id:``, ``event:``, ``data:``; ``:`` comments ignored)."""

    def __init__(self) -> None:
        self._id: str | None = None
        self._event = "message"
        self._data: list[str] = []

    def feed(self, lines: Iterable[str]) -> list[Event]:
        events: list[Event] = []
        for line in lines:
            event = self.line(line)
            if event is not None:
                events.append(event)
        return events

    def line(self, line: str) -> Event | None:
        if not line:
            if not self._data:
                self._event = "message"
                return None
            raw = "\n".join(self._data)
            try:
                data: Any = json.loads(raw)
            except ValueError:
                data = raw
            event = Event(self._id, self._event, data)
            self._event, self._data = "message", []
            return event
        if line.startswith(":"):
            return None
        name, _, value = line.partition(":")
        value = value.removeprefix(" ")
        if name == "data":
            self._data.append(value)
        elif name == "event":
            self._event = value
        elif name == "id":
            self._id = value
        return None


def finishes(event: Event) -> bool:
    """Whether this event moved the job to a settled status (final, or waiting for input)."""
    data = event.data if isinstance(event.data, dict) else {}
    return str(data.get("toStatus") or "").upper() in SETTLED_STATUSES
