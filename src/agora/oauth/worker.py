"""The OAuth worker: clients registered more than ``AGORA_OAUTH_UNUSED_CLIENT_DAYS`` ago that
never got a grant or a device code are deleted, so open registration (RFC 7591) cannot fill the
client table for good (docs/security.md, "OAuth clients"). Every ``AGORA_HOUSEKEEPING_SECONDS``
in every dispatching process, in batches of ``BATCH``, each its own short transaction, at most
``MAX_BATCHES`` per round; the delete is idempotent, so processes doing it together only repeat
each other."""

from __future__ import annotations

from datetime import datetime, timedelta

import structlog

from agora.kit.background import LoopService
from agora.kit.db import Database
from agora.kit.timeutil import utcnow
from agora.oauth import repository as repo
from agora.settings import Settings

log = structlog.get_logger(__name__)

BATCH = 500
MAX_BATCHES = 20


class UnusedClients(LoopService):
    def __init__(self, db: Database, settings: Settings) -> None:
        self.db, self.settings = db, settings
        every = float(settings.accounts.housekeeping_seconds)
        super().__init__(
            "oauth-unused-clients", interval=every, error_delay=60.0, max_delay=max(every, 1.0)
        )

    async def round(self) -> None:
        removed = await self.run_once()
        if removed:
            log.info("oauth unused clients deleted", count=removed)

    async def run_once(self, now: datetime | None = None) -> int:
        """One round (as of ``now``: the tests' clock): how many clients were deleted (0 when
        the setting is 0)."""
        days = self.settings.accounts.oauth_unused_client_days
        if days <= 0:
            return 0
        before = (now or utcnow()) - timedelta(days=days)
        removed = 0
        for _ in range(MAX_BATCHES):
            async with self.db.transaction() as session:
                count = await repo.delete_unused_clients(session, before, BATCH)
            removed += count
            if count < BATCH:
                break
        return removed
