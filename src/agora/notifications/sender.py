"""Sends queued notifications (the outbox) with retries and back-off; runs beside the dispatcher
(in ``agora serve`` and in ``agora worker``). Each attempt is logged on the delivery row."""

from __future__ import annotations

import asyncio
import contextlib
import uuid
from datetime import timedelta
from typing import Any

import httpx2
import structlog

from agora.kit.db import Database
from agora.kit.timeutil import as_utc, utcnow
from agora.notifications import outbox
from agora.notifications import repository as repo
from agora.notifications.channels import CHANNELS, SendResult
from agora.settings import Settings

log = structlog.get_logger(__name__)

IDLE_POLL_SECONDS = 1.0
BATCH = 50
SEND_LEASE_SECONDS = 120.0
MAX_BACKOFF_SECONDS = 3600.0


class NotificationSender:
    def __init__(self, db: Database, settings: Settings) -> None:
        self.db, self.settings = db, settings
        self._client: httpx2.AsyncClient | None = None  # opened on first use, closed by stop()
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._unsubscribe: Any = None

    async def start(self) -> None:
        self._unsubscribe = outbox.subscribe(self._wake.set)
        self._task = asyncio.create_task(self._run(), name="notification-sender")

    async def stop(self) -> None:
        if self._unsubscribe:
            self._unsubscribe()
        if self._task:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        if self._client is not None:
            await self._client.aclose()
            self._client = None

    @property
    def client(self) -> httpx2.AsyncClient:
        if self._client is None:
            self._client = httpx2.AsyncClient(
                timeout=self.settings.notification_timeout_seconds, follow_redirects=False
            )
        return self._client

    async def _run(self) -> None:
        while True:
            self._wake.clear()
            delay = IDLE_POLL_SECONDS
            try:
                if await self.run_once():
                    delay = 0
                else:
                    async with self.db.transaction(write=False) as session:
                        due = await repo.next_due(session)
                    if due is not None:
                        wait = (as_utc(due) - utcnow()).total_seconds()
                        delay = max(0.0, min(IDLE_POLL_SECONDS, wait))
            except Exception:
                log.exception("notification_round_failed")
            if delay > 0:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._wake.wait(), timeout=delay)

    async def run_once(self) -> int:
        """Send every due delivery once; returns how many were attempted."""
        now = utcnow()
        async with self.db.transaction() as session:
            ids = await repo.claim(
                session,
                now=now,
                lease_until=now + timedelta(seconds=SEND_LEASE_SECONDS),
                limit=BATCH,
            )
        await asyncio.gather(*(self._send(i) for i in ids))
        return len(ids)

    async def _send(self, delivery_id: uuid.UUID) -> None:
        async with self.db.transaction(write=False) as session:
            found = await repo.with_user(session, delivery_id)
        if found is None:
            return
        delivery, user = found
        channel = CHANNELS.get(delivery.channel)
        if channel is None:
            result = SendResult(False, error=f"unknown channel {delivery.channel}")
        else:
            result = await channel.send(self.client, delivery, user)
        attempts = delivery.attempts + 1
        now = utcnow()
        values: dict[str, Any] = {
            "attempts": attempts,
            "last_status_code": result.status_code,
            "last_error": result.error,
        }
        if result.ok:
            values.update(state=repo.DELIVERED, delivered_at=now, next_attempt_at=None)
        elif attempts >= self.settings.notification_max_attempts:
            values.update(state=repo.FAILED, next_attempt_at=None)
        else:
            delay = min(
                MAX_BACKOFF_SECONDS, self.settings.notification_retry_seconds * 2 ** (attempts - 1)
            )
            values.update(state=repo.PENDING, next_attempt_at=now + timedelta(seconds=delay))
        async with self.db.transaction() as session:
            await repo.record(session, delivery_id, **values)
