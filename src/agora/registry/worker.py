"""The registry's background service: sync the configured registry feed every
``registry_sync_seconds`` (``round`` is one sync)."""

from __future__ import annotations

import structlog

from agora.kit.background import LoopService
from agora.kit.db import Database
from agora.kit.outbound import redact_url
from agora.registry.client import RegistryError
from agora.registry.service import sync
from agora.settings import Settings

log = structlog.get_logger(__name__)


class RegistrySyncLoop(LoopService):
    def __init__(self, db: Database, settings: Settings) -> None:
        self.db, self.settings = db, settings
        every = float(settings.registry_sync_seconds)
        super().__init__(
            "registry-sync", interval=every, error_delay=every, max_delay=max(every, 1.0)
        )

    async def run_once(self) -> None:
        """One sync; an unreachable or malformed feed is logged, not raised."""
        url = self.settings.registry_url
        if not url:
            return
        try:
            await sync(self.db, self.settings, url)
        except RegistryError as exc:
            log.warning("registry_sync_failed", url=redact_url(url), error=str(exc))

    async def round(self) -> None:
        await self.run_once()
