"""The agents' background service: periodic availability checks (``service.check_availability``)."""

from __future__ import annotations

import structlog

from agora.agents.service import check_availability
from agora.kit.background import LoopService
from agora.kit.db import Database
from agora.mip003.client import Mip003Client
from agora.settings import Settings

log = structlog.get_logger(__name__)

DEMO_FIRST_ROUND_SECONDS = 5.0


class AvailabilityChecker(LoopService):
    def __init__(self, db: Database, client: Mip003Client, settings: Settings) -> None:
        self.db, self.client, self.settings = db, client, settings
        every = float(settings.availability_check_seconds)
        # With the demo, the first round comes soon after start, so the gallery's availability
        # badges show the demo agents' state at once instead of "not checked yet" for minutes.
        first = min(every, DEMO_FIRST_ROUND_SECONDS) if settings.demo else every
        super().__init__(
            "agent-availability-checker", interval=every, initial_delay=first, error_delay=every
        )

    async def round(self) -> None:
        counts = await check_availability(self.db, self.client, self.settings)
        log.info("agent_availability_checked", **counts)
