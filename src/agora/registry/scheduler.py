"""Background service: sync the configured registry feed every ``registry_sync_seconds``
(a ``kit.background.Loop``; ``round`` is one sync)."""

from __future__ import annotations

import structlog

from agora.kit.background import Loop
from agora.kit.db import Database
from agora.kit.outbound import redact_url
from agora.registry.client import RegistryError
from agora.registry.service import sync
from agora.settings import Settings

log = structlog.get_logger(__name__)


class RegistrySyncLoop:
    def __init__(self, db: Database, settings: Settings) -> None:
        self.db, self.settings = db, settings
        every = float(settings.registry_sync_seconds)
        self.loop = Loop("registry-sync", self.round, error_delay=every, max_delay=max(every, 1.0))

    async def start(self) -> None:
        await self.loop.start()

    async def stop(self) -> None:
        await self.loop.stop()

    async def run_once(self) -> None:
        """One sync; an unreachable or malformed feed is logged, not raised."""
        url = self.settings.registry_url
        if not url:
            return
        try:
            await sync(self.db, self.settings, url)
        except RegistryError as exc:
            log.warning("registry_sync_failed", url=redact_url(url), error=str(exc))

    async def round(self) -> float:
        await self.run_once()
        return float(self.settings.registry_sync_seconds)
