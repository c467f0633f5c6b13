"""The privacy worker (docs/accounts.md, "Your data", "Deleting your account"): in every
dispatching process, woken by a new export request and every ``AGORA_PRIVACY_SECONDS``.

A round
1. builds pending exports, one at a time: a short transaction leases one; the ZIP is streamed to
   storage (users/export.py) with each page of rows read in its own short read transaction, so
   nothing is held across the storage writes; a last transaction records the link's hash and the
   mail goes out after it commits. A worker that dies leaves its lease, which expires;
2. deletes the blobs of exports downloaded or expired;
3. erases the accounts whose grace period ended, each in one transaction, then deletes their
   files' blobs from storage and mails the farewell to the address the account had.
"""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta
from typing import Any

import structlog

from agora.auth import service as auth
from agora.files import service as files
from agora.kit.background import LoopService
from agora.kit.db import Database
from agora.kit.security import new_token
from agora.kit.timeutil import utcnow
from agora.models.personal_data import Table
from agora.notifications.mailer import build_sender
from agora.settings import Settings
from agora.users import export, privacy
from agora.users import repository as repo

log = structlog.get_logger(__name__)

LEASE_SECONDS = 1800.0
EXPORTS_PER_ROUND = 3
ERASURES_PER_ROUND = 20
STALE_PER_ROUND = 100


def export_key(user_id: uuid.UUID, export_id: uuid.UUID) -> str:
    return f"exports/{user_id}/{export_id}.zip"


class PrivacyWorker(LoopService):
    def __init__(self, db: Database, settings: Settings) -> None:
        self.db, self.settings = db, settings
        self.storage = files.storage_for(settings)
        self.mailer = build_sender(settings)
        every = float(settings.accounts.privacy_seconds) or 3600.0
        super().__init__(
            "privacy", interval=every, topics=(privacy.DATA_EXPORTS,), error_delay=30.0,
            max_delay=every,
        )  # fmt: skip

    async def round(self) -> None:
        await self.run_once()

    async def run_once(self, now: datetime | None = None) -> dict[str, int]:
        """One round as of ``now`` (the tests' clock): what it did."""
        built = 0
        for _ in range(EXPORTS_PER_ROUND):
            if not await self.build_one(now):
                break
            built += 1
        return {
            "exports": built,
            "stale": await self.drop_stale(now),
            "erased": await self.erase_due(now),
        }

    # ---- exports ------------------------------------------------------------------------------

    async def build_one(self, now: datetime | None = None) -> bool:
        start = now or utcnow()
        async with self.db.transaction() as session:
            claimed = await repo.claim_export(
                session, start, start + timedelta(seconds=LEASE_SECONDS)
            )
        if claimed is None:
            return False
        export_id, user_id, email = claimed
        async with self.db.transaction(write=False) as session:
            person = await repo.person(session, user_id, email)

        async def pages(spec: Table, after: tuple[Any, ...] | None) -> list[dict[str, Any]]:
            async with self.db.transaction(write=False) as read:
                return await repo.export_page(read, spec, person, after, export.PAGE_ROWS)

        key = export_key(user_id, export_id)
        about = {"account": str(user_id), "email": email, "exportedAt": start.isoformat()}
        try:
            size = await self.storage.write(
                key,
                export.zip_chunks(pages, repo.page_key, self.storage.read, about=about),
                lambda: "application/zip",
            )
        except Exception as exc:
            log.exception("data export failed", export_id=str(export_id))
            await self.storage.delete(key)
            async with self.db.transaction() as session:
                await repo.fail_export(session, export_id, type(exc).__name__)
            return True
        plaintext, token_hash = new_token()
        ready = utcnow() if now is None else now
        expires_at = ready + timedelta(hours=self.settings.accounts.data_export_link_hours)
        async with self.db.transaction() as session:
            done = await repo.finish_export(
                session, export_id, key=key, size=size, token_hash=token_hash, now=ready,
                expires_at=expires_at,
            )  # fmt: skip
        if not done:  # the account was erased meanwhile
            await self.storage.delete(key)
            return True
        await self.mailer.send(privacy.export_mail(self.settings, email, plaintext, expires_at))
        log.info("data export ready", export_id=str(export_id), bytes=size)
        return True

    async def drop_stale(self, now: datetime | None = None) -> int:
        async with self.db.transaction(write=False) as session:
            stale = [
                (row.id, row.storage_key, row.state == "ready")
                for row in await repo.stale_exports(session, now or utcnow(), STALE_PER_ROUND)
            ]
        for export_id, key, expired in stale:
            if key:
                await self.storage.delete(key)
            async with self.db.transaction() as session:
                await repo.forget_blob(session, export_id, expired=expired)
        return len(stale)

    # ---- erasure ------------------------------------------------------------------------------

    async def erase_due(self, now: datetime | None = None) -> int:
        at = now or utcnow()
        async with self.db.transaction(write=False) as session:
            due = await privacy.due_deletions(session, at, ERASURES_PER_ROUND)
        erased = 0
        for user_id in due:
            async with self.db.transaction() as session:
                done = await privacy.erase_account(session, user_id, at)
            if done is None:
                continue
            erased += 1
            auth.forget_cached_principals()  # this process stops seeing its keys at once
            for key in done.blobs:
                await self.storage.delete(key)
            await self.mailer.send(privacy.farewell_mail(done.email))
            log.info("account erased", user_id=str(user_id), blobs=len(done.blobs))
        return erased
