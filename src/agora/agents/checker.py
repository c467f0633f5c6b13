"""Background service: periodic availability checks (see service.check_availability)."""

from __future__ import annotations

import asyncio
import contextlib

import structlog

from agora.agents.service import check_availability
from agora.kit.db import Database
from agora.mip003.client import Mip003Client
from agora.settings import Settings

log = structlog.get_logger(__name__)


class AvailabilityChecker:
    def __init__(self, db: Database, client: Mip003Client, settings: Settings) -> None:
        self.db, self.client, self.settings = db, client, settings
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="agent-availability-checker")

    async def stop(self) -> None:
        if self._task:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.settings.availability_check_seconds)
            try:
                counts = await check_availability(self.db, self.client, self.settings)
                log.info("agent_availability_checked", **counts)
            except Exception:  # keep checking; a bad round must not end the loop
                log.exception("agent_availability_check_failed")
