"""Reading server-sent events (``GET /v1/jobs/{id}/stream``) in tests, and the timing bounds
that tell a notified event from one found by polling."""

from __future__ import annotations

import asyncio

import httpx2

FALLBACK_SECONDS = 30.0  # the served app's poll in these tests: far above a notified event's delay
ARRIVAL_SECONDS = 5.0  # a notified event arrives well within this (usually in milliseconds)


class Frames:
    """The event frames of an open SSE response (``retry`` and comments skipped)."""

    def __init__(self, response: httpx2.Response) -> None:
        self.lines = response.aiter_lines()

    async def _read(self) -> dict[str, str]:
        frame: dict[str, str] = {}
        async for line in self.lines:
            if not line:
                if "event" in frame:
                    return frame
                frame = {}
            elif not line.startswith(":"):
                name, _, value = line.partition(":")
                frame[name] = value.strip()
        raise AssertionError("the stream ended")

    async def next(self, seconds: float = ARRIVAL_SECONDS) -> dict[str, str]:
        return await asyncio.wait_for(self._read(), seconds)
