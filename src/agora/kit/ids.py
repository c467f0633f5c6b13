"""Time-ordered UUIDs (RFC 9562 version 7), monotonic within one process.

Ids sort by creation time, so they are a stable tie-breaker after timestamps and index well.
"""

from __future__ import annotations

import os
import threading
import time
import uuid
from collections.abc import Awaitable, Callable
from typing import TypeVar

from agora.kit.errors import NotFound

T = TypeVar("T")

_lock = threading.Lock()
_last_ms = 0
_counter = 0


def uuid7() -> uuid.UUID:
    global _last_ms, _counter
    with _lock:
        ms = time.time_ns() // 1_000_000
        if ms <= _last_ms:
            # Same (or earlier) millisecond: keep order by bumping a 12-bit counter.
            ms = _last_ms
            _counter += 1
            if _counter > 0xFFF:
                ms += 1
                _counter = 0
        else:
            _counter = int.from_bytes(os.urandom(2), "big") & 0x3FF
        _last_ms = ms
        counter = _counter
    rand = int.from_bytes(os.urandom(8), "big") & ((1 << 62) - 1)
    value = (ms & ((1 << 48) - 1)) << 80
    value |= 0x7 << 76
    value |= counter << 64
    value |= 0b10 << 62
    value |= rand
    return uuid.UUID(int=value)


def parse_uuid(value: str) -> uuid.UUID | None:
    """The UUID in ``value``, or None when it is not one (callers answer 404 or 400)."""
    try:
        return uuid.UUID(value)
    except (ValueError, AttributeError, TypeError):
        return None


async def fetch_by_id(
    raw_id: str, label: str, fetch: Callable[[uuid.UUID], Awaitable[T | None]]
) -> T:
    """What ``fetch`` finds for ``raw_id``. A malformed id, an unknown one and one the caller may
    not see (another workspace's) are the same 404, so nothing about other tenants leaks."""
    parsed = parse_uuid(raw_id)
    found = await fetch(parsed) if parsed is not None else None
    if found is None:
        raise NotFound(f"{label} {raw_id} not found")
    return found
