"""The registry's background service: sync the configured registry feed every
``registry_sync_seconds``; ``sync`` is one round (``agora registry sync`` runs it too).

A round fetches each page of the feed with no transaction open, then writes it (with the
checkpoint it reached) in one short transaction (registry/service.py has the rules).
"""

from __future__ import annotations

from datetime import timedelta

import structlog

from agora.kit.background import LoopService
from agora.kit.db import Database
from agora.kit.outbound import OutboundPolicy, redact_url
from agora.kit.timeutil import as_utc, utcnow
from agora.registry import service
from agora.registry.client import RegistryError, RegistryFeed, iso_z
from agora.registry.service import SyncReport
from agora.settings import Settings

log = structlog.get_logger(__name__)

# After a full pass, registry-diff starts this long before the registry's clock said the pass
# began: a change made while the pass ran is seen again (applying an entry twice changes
# nothing), never missed.
DIFF_OVERLAP = timedelta(minutes=15)
# A full pass at least this often: metadata changes that keep an entry's status do not move its
# statusUpdatedAt, so registry-diff never brings them.
FULL_PASS_EVERY = timedelta(hours=24)


async def sync(
    db: Database,
    settings: Settings,
    url: str,
    *,
    updated_after: str | None = None,
    full: bool = False,
) -> SyncReport:
    """Import the feed at ``url``: a full registry-entry pass when the feed has no checkpoint
    yet, its last pass is ``FULL_PASS_EVERY`` old, or ``full``; then registry-diff from the
    checkpoint, which advances with each page.
    ``updated_after`` pages registry-diff from that time only and leaves the checkpoint alone.
    Raises RegistryError when the feed fails (pages already written stay written)."""
    report = SyncReport()
    since = service.since_text(updated_after) if updated_after is not None else None
    async with RegistryFeed(
        url,
        network=settings.registry.network,
        token=settings.registry.token,
        timeout=settings.registry.timeout_seconds,
        page_size=settings.registry.page_size,
        policy=OutboundPolicy.from_setting(settings.outbound_allow),
    ) as feed:
        if since is not None:
            start: tuple[str, str | None] = (since, None)
        else:
            start = await _full_pass_if_due(db, settings, feed, report, full=full)
        report.checkpoint = start[0]
        async for diff in feed.diff(
            status_updated_after=start[0],
            cursor_id=start[1],
            max_pages=settings.registry.max_pages,
        ):
            report.pages += 1
            async with db.transaction() as session:
                await service.import_page(session, settings, feed.base, diff.entries, report)
                if since is None:
                    position = (diff.status_updated_after, diff.cursor_id)
                    await service.advance_checkpoint(
                        session, feed.base, settings.registry.network, position
                    )
            report.checkpoint = diff.status_updated_after
    log.info(
        "registry_synced",
        url=redact_url(url),
        full=report.full,
        checkpoint=report.checkpoint,
        **report.as_dict(),
    )
    return report


async def _full_pass_if_due(
    db: Database, settings: Settings, feed: RegistryFeed, report: SyncReport, *, full: bool
) -> tuple[str, str | None]:
    """Page registry-entry when due (``sync``); where registry-diff starts: the stored
    checkpoint, or before the first pass began (no checkpoint yet)."""
    network = settings.registry.network
    async with db.transaction(write=False) as session:
        stored = await service.checkpoint(session, feed.base, network)
    start = (stored.status_updated_after, stored.cursor_id) if stored else ("", None)
    last_full = stored.full_pass_at if stored else None
    if not full and last_full is not None and utcnow() - as_utc(last_full) < FULL_PASS_EVERY:
        return start
    report.full = True
    async for page in feed.entries(max_pages=settings.registry.max_pages):
        report.pages += 1
        async with db.transaction() as session:  # fetched already: a short write
            await service.import_page(session, settings, feed.base, page, report)
    if stored is None:
        start = (iso_z((feed.first_answer_at or utcnow()) - DIFF_OVERLAP), None)
    async with db.transaction() as session:
        await service.advance_checkpoint(session, feed.base, network, start, full_pass_at=utcnow())
    return start


class RegistrySyncLoop(LoopService):
    def __init__(self, db: Database, settings: Settings) -> None:
        self.db, self.settings = db, settings
        every = float(settings.registry.sync_seconds)
        super().__init__(
            "registry-sync", interval=every, error_delay=every, max_delay=max(every, 1.0)
        )

    async def run_once(self) -> None:
        """One sync; an unreachable or malformed feed is logged, not raised."""
        url = self.settings.registry.url
        if not url:
            return
        try:
            await sync(self.db, self.settings, url)
        except RegistryError as exc:
            log.warning("registry_sync_failed", url=redact_url(url), error=str(exc))

    async def round(self) -> None:
        await self.run_once()
