"""Read a registry feed shaped like the Masumi registry service's (reference/masumi-payment.md):

``POST {url}/api/v1/registry-entry`` with ``{network, limit, cursorId?}`` answers
``{"status": "success", "data": {"entries": [...]}}``; ``cursorId`` is inclusive (the page starts
with the entry it names), so the first entry of a follow-up page is dropped when it is the cursor.
``POST {url}/api/v1/registry-diff`` takes ``statusUpdatedAfter`` as well (entries changed since).

Every request goes through the outbound guard (``kit.outbound``: ``guarded_client`` with the
operator's ``AGORA_OUTBOUND_ALLOW`` policy, ``send_limited``), like agents and webhooks: a private,
loopback or metadata address is refused before any connection. Bounded: time per request, bytes
per page, number of pages; no redirects followed. Errors name the feed by scheme and host only.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
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


class RegistryError(Exception):
    """The feed could not be read (unreachable, not JSON, wrong shape, too large)."""


def feed_url(url: str) -> str:
    try:
        return validate_base_url(url)
    except ValueError as exc:
        raise RegistryError(f"registry URL {url!r}: {exc}") from exc


class RegistryFeed:
    def __init__(
        self,
        url: str,
        *,
        network: str,
        timeout: float,
        page_size: int,
        policy: OutboundPolicy | None = None,
    ) -> None:
        self.base = feed_url(url)
        self.network, self.page_size, self.timeout = network, page_size, timeout
        self._client = guarded_client(
            policy or OutboundPolicy(),
            timeout=timeout,
            connect_timeout=5.0,
            headers={"user-agent": "agora-marketplace/1 (registry import)"},
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
        if answer.status_code != 200:
            raise RegistryError(f"registry {where}: answered {answer.status_code}")
        try:
            payload = json.loads(answer.body)
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise RegistryError(f"registry {where}: the answer is not JSON") from exc
        data = payload.get("data") if isinstance(payload, dict) else None
        entries = data.get("entries") if isinstance(data, dict) else None
        if not isinstance(entries, list):
            raise RegistryError(f"registry {where}: the answer has no data.entries list")
        return entries

    async def pages(
        self, *, max_pages: int, updated_after: str | None = None
    ) -> AsyncIterator[list[Any]]:
        """Every page of the feed (``registry-diff`` when ``updated_after`` is given)."""
        path = "/api/v1/registry-entry" if updated_after is None else "/api/v1/registry-diff"
        cursor: str | None = None
        for _ in range(max_pages):
            body: dict[str, Any] = {"network": self.network, "limit": self.page_size}
            if cursor is not None:
                body["cursorId"] = cursor
            if updated_after is not None:
                body["statusUpdatedAfter"] = updated_after
            raw = await self._post(path, body)
            entries = raw
            if cursor is not None and entries and _entry_id(entries[0]) == cursor:
                entries = entries[1:]
            if entries:
                yield entries
            last = _entry_id(raw[-1]) if raw else None
            if len(raw) < self.page_size or not entries or last is None or last == cursor:
                return
            cursor = last
        raise RegistryError(
            f"registry {redact_url(self.base)}: more than {max_pages} pages; raise the page limit"
        )


def _entry_id(entry: Any) -> str | None:
    if isinstance(entry, dict):
        value = entry.get("id")
        if isinstance(value, (str, int)) and str(value):
            return str(value)
    return None
