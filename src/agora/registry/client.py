"""Read the Masumi registry service's feed (masumi-registry-service 53c29e3, see
reference/masumi-payment.md).

- Every call carries the ``token`` header (``AGORA_REGISTRY_TOKEN``): without one the service
  answers 401 "No token provided" (src/utils/middleware/auth-middleware/index.ts).
- ``limit`` is 1 to 50 (src/routes/api/registry-entry/schemas.ts); Settings refuses more.
- ``POST /api/v1/registry-entry {network, limit, cursorId?, filter?}``: ordered by ``id`` desc,
  ``cursorId`` inclusive (the page starts with the entry it names, when that entry still
  matches the filter); without ``filter.status`` only ``Online`` entries come back
  (src/services/registry-entry/registry-entry.service.ts, src/repositories/registry-entry/…).
  Agora asks for ``Online`` and ``Offline``: both are registered agents.
- ``POST /api/v1/registry-diff {network, statusUpdatedAfter, limit, cursorId?}``: every status,
  ordered by ``statusUpdatedAt, id``; an entry is on the page when its ``statusUpdatedAt`` is
  after ``statusUpdatedAfter``, or equal to it with an ``id`` ≥ ``cursorId``. The next page is
  asked with the last entry's ``statusUpdatedAt`` **and** its ``id``; that entry comes back
  first and is dropped here. ``statusUpdatedAfter`` is an ISO 8601 text (``ez.dateIn``: a date,
  or a date-time in UTC ``Z`` or without zone; never Unix milliseconds).
- Answers ``{"status":"success","data":{"entries":[…]}}``; errors
  ``{"status":"error","error":{"message":…}}`` with 400/401/500.

Every request goes through the outbound guard (``kit.outbound``: ``guarded_client`` with the
operator's ``AGORA_OUTBOUND_ALLOW`` policy, ``send_limited``), like agents and webhooks: a private,
loopback or metadata address is refused before any connection. Bounded: time per request, bytes
per page, number of pages; no redirects followed. Errors name the feed by scheme and host only;
the token is never logged.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from typing import Any

from agora.kit.outbound import (
    OutboundError,
    OutboundPolicy,
    guarded_client,
    redact_url,
    send_limited,
)
from agora.mip003.client import validate_base_url

MAX_PAGE_BYTES = 10 * 1024 * 1024
# What a full pass asks registry-entry for (its default is Online only).
LISTED_STATUSES = ("Online", "Offline")


class RegistryError(Exception):
    """The feed could not be read (unreachable, refused, not JSON, wrong shape, too large)."""


def feed_url(url: str) -> str:
    try:
        return validate_base_url(url)
    except ValueError as exc:
        raise RegistryError(f"registry URL {url!r}: {exc}") from exc


def iso_z(moment: datetime) -> str:
    """A time as the registry writes its own (JavaScript's ``toISOString``)."""
    return moment.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


@dataclass(frozen=True)
class DiffPage:
    """Entries not seen on the previous page, and where the next page starts."""

    entries: list[Any]
    status_updated_after: str
    cursor_id: str | None


class RegistryFeed:
    def __init__(
        self,
        url: str,
        *,
        network: str,
        token: str,
        timeout: float,
        page_size: int,
        policy: OutboundPolicy | None = None,
    ) -> None:
        self.base = feed_url(url)
        self.network, self.page_size, self.timeout = network, page_size, timeout
        self.first_answer_at: datetime | None = None  # the registry's clock (Date header)
        headers = {"user-agent": "agora-marketplace/1 (registry import)"}
        if token:
            headers["token"] = token
        self._client = guarded_client(
            policy or OutboundPolicy(), timeout=timeout, connect_timeout=5.0, headers=headers
        )

    async def aclose(self) -> None:
        await self._client.aclose()

    async def __aenter__(self) -> RegistryFeed:
        return self

    async def __aexit__(self, *_exc: object) -> None:
        await self.aclose()

    async def _post(self, path: str, body: dict[str, Any]) -> list[Any]:
        url = f"{self.base}{path}"
        where = redact_url(self.base)
        try:
            answer = await send_limited(
                self._client,
                "POST",
                url,
                json=body,
                max_bytes=MAX_PAGE_BYTES,
                total_seconds=self.timeout,
            )
        except OutboundError as exc:
            raise RegistryError(f"registry {where}: {exc}") from exc
        try:
            payload = json.loads(answer.body)
        except (json.JSONDecodeError, UnicodeDecodeError):
            payload = None
        if answer.status_code != 200:
            said = _error_message(payload)
            hint = " (set AGORA_REGISTRY_TOKEN)" if answer.status_code == 401 else ""
            raise RegistryError(
                f"registry {where}: {path} answered {answer.status_code}"
                + (f": {said}" if said else "")
                + hint
            )
        if payload is None:
            raise RegistryError(f"registry {where}: the answer is not JSON")
        if self.first_answer_at is None:
            self.first_answer_at = _date_header(answer.headers.get("date"))
        data = payload.get("data") if isinstance(payload, dict) else None
        entries = data.get("entries") if isinstance(data, dict) else None
        if not isinstance(entries, list):
            raise RegistryError(f"registry {where}: the answer has no data.entries list")
        return entries

    async def entries(self, *, max_pages: int) -> AsyncIterator[list[Any]]:
        """Every listed (Online or Offline) entry, page by page (registry-entry)."""
        cursor: str | None = None
        for _ in range(max_pages):
            body: dict[str, Any] = {
                "network": self.network,
                "limit": self.page_size,
                "filter": {"status": list(LISTED_STATUSES)},
            }
            if cursor is not None:
                body["cursorId"] = cursor
            raw = await self._post("/api/v1/registry-entry", body)
            fresh = raw
            if cursor is not None and raw and _entry_id(raw[0]) == cursor:
                fresh = raw[1:]
            if fresh:
                yield fresh
            last = _entry_id(raw[-1]) if raw else None
            if len(raw) < self.page_size or not fresh or last is None or last == cursor:
                return
            cursor = last
        raise RegistryError(
            f"registry {redact_url(self.base)}: more than {max_pages} pages; raise the page limit"
        )

    async def diff(
        self, *, status_updated_after: str, cursor_id: str | None, max_pages: int
    ) -> AsyncIterator[DiffPage]:
        """The entries whose status changed since the checkpoint, in the registry's order; each
        page says where the next one starts. Stops after ``max_pages`` (the caller keeps the
        checkpoint and resumes there)."""
        after, cursor = status_updated_after, cursor_id
        for _ in range(max_pages):
            body: dict[str, Any] = {
                "network": self.network,
                "limit": self.page_size,
                "statusUpdatedAfter": after,
            }
            if cursor is not None:
                body["cursorId"] = cursor
            raw = await self._post("/api/v1/registry-diff", body)
            fresh = raw
            if (
                cursor is not None
                and raw
                and _entry_id(raw[0]) == cursor
                and _status_time(raw[0]) == after
            ):
                fresh = raw[1:]  # the previous page's last entry, already applied
            position = (after, cursor)
            if raw:
                last_id, last_time = _entry_id(raw[-1]), _status_time(raw[-1])
                if last_id is None or last_time is None:
                    raise RegistryError(
                        f"registry {redact_url(self.base)}: a registry-diff entry has no id or "
                        "statusUpdatedAt; cannot page on"
                    )
                position = (last_time, last_id)
            yield DiffPage(fresh, position[0], position[1])
            if len(raw) < self.page_size or position == (after, cursor):
                return
            after, cursor = position


def _error_message(payload: Any) -> str | None:
    error = payload.get("error") if isinstance(payload, dict) else None
    message = error.get("message") if isinstance(error, dict) else None
    return message[:200] if isinstance(message, str) else None


def _date_header(value: str | None) -> datetime | None:
    if not value:
        return None
    try:
        moment = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def _entry_id(entry: Any) -> str | None:
    if isinstance(entry, dict):
        value = entry.get("id")
        if isinstance(value, (str, int)) and str(value):
            return str(value)
    return None


def _status_time(entry: Any) -> str | None:
    value = entry.get("statusUpdatedAt") if isinstance(entry, dict) else None
    return value if isinstance(value, str) and 0 < len(value) <= 40 else None
