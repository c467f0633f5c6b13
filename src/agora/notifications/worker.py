"""Sends queued notifications (the outbox) with retries on the Standard Webhooks schedule
(``retries.py``); runs beside the dispatcher (in ``agora serve`` and in ``agora worker``). Each
attempt is logged on the delivery row, and a webhook's on its endpoint (``health.py``). The
clock is injected (``clock``) so tests move time through the schedule."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

import httpx2
import structlog

from agora.kit.background import LoopService
from agora.kit.db import Database
from agora.kit.mail import MailSender
from agora.kit.outbound import OutboundPolicy, guarded_client
from agora.kit.timeutil import as_utc, utcnow
from agora.models import NotificationDelivery
from agora.models.notification import endpoint_id
from agora.models.statuses import DeliveryState
from agora.notifications import health, outbox, unsubscribe
from agora.notifications import kinds as registry
from agora.notifications import repository as repo
from agora.notifications.channels import (
    CHANNELS,
    JOB_WEBHOOK,
    WEBHOOK_CHANNELS,
    SendContext,
    SendResult,
    send_mail,
)
from agora.notifications.mail import compose_digest
from agora.notifications.mailer import build_sender
from agora.notifications.retries import retry_delay
from agora.settings import Settings

log = structlog.get_logger(__name__)

IDLE_POLL_SECONDS = 1.0
BATCH = 50
SEND_LEASE_SECONDS = 120.0
DIGEST_KINDS = [k.name for k in registry.KINDS.values() if k.digest]


Clock = Callable[[], datetime]


class NotificationSender(LoopService):
    def __init__(
        self,
        db: Database,
        settings: Settings,
        *,
        mailer: MailSender | None = None,
        clock: Clock = utcnow,
    ) -> None:
        self.db, self.settings, self.clock = db, settings, clock
        self.mailer = mailer if mailer is not None else build_sender(settings)
        self._secret_key: str | None = None
        self._client: httpx2.AsyncClient | None = None  # opened on first use, closed by stop()
        super().__init__(
            "notification-sender",
            interval=IDLE_POLL_SECONDS,
            topics=(outbox.TOPIC,),
            max_delay=IDLE_POLL_SECONDS,
        )

    async def stop(self) -> None:
        await super().stop()
        if self._client is not None:
            await self._client.aclose()
            self._client = None

    @property
    def client(self) -> httpx2.AsyncClient:
        if self._client is None:
            self._client = guarded_client(
                OutboundPolicy.from_setting(self.settings.outbound_allow),
                timeout=self.settings.notifications.timeout_seconds,
                connect_timeout=5.0,
            )
        return self._client

    def _unsubscribe_token(self, user_id: str, kind: str) -> str:
        if self._secret_key is None:
            self._secret_key = self.settings.resolved_secret_key()
        return unsubscribe.make_token(self._secret_key, user_id, kind)

    async def round(self) -> float:
        """Send what is due; returns the seconds until the next round (0: more may be due)."""
        if await self.run_once():
            return 0.0
        async with self.db.transaction(write=False) as session:
            due = await repo.next_due(session)
        if due is None:
            return IDLE_POLL_SECONDS
        return max(0.0, min(IDLE_POLL_SECONDS, (as_utc(due) - self.clock()).total_seconds()))

    async def run_once(self) -> int:
        """Send every due delivery once; returns how many were attempted. The due mails of
        digest kinds go out as one digest mail per person."""
        now = self.clock()
        async with self.db.transaction() as session:
            ids = await repo.claim(
                session,
                now=now,
                lease_until=now + timedelta(seconds=SEND_LEASE_SECONDS),
                limit=BATCH,
            )
        digests: dict[uuid.UUID, list[uuid.UUID]] = {}
        if ids:
            async with self.db.transaction(write=False) as session:
                for delivery_id, user_id in await repo.digest_rows(session, ids, DIGEST_KINDS):
                    digests.setdefault(user_id, []).append(delivery_id)
        held = {i for group in digests.values() for i in group}
        await asyncio.gather(
            *(self._send(i) for i in ids if i not in held),
            *(self._send_digest(u, group) for u, group in digests.items()),
        )
        return len(ids)

    async def _send_digest(self, user_id: uuid.UUID, ids: list[uuid.UUID]) -> None:
        """One mail for the person's held notifications of digest kinds; each row records it."""
        async with self.db.transaction(write=False) as session:
            user = await repo.user(session, user_id)
            deliveries = await repo.deliveries_of(session, ids)
        if user is None or not deliveries:
            return
        token = self._unsubscribe_token(str(user.id), unsubscribe.DIGEST)
        mail = compose_digest(self.settings.public_url, deliveries, user, token)
        result = await send_mail(self.mailer, mail)
        for delivery in deliveries:
            await self._record(delivery, result)

    async def _send(self, delivery_id: uuid.UUID) -> None:
        async with self.db.transaction(write=False) as session:
            found = await repo.with_user(session, delivery_id)
            if found is None:
                return
            delivery, user = found
            secret = disabled = None
            if delivery.channel == JOB_WEBHOOK:
                row = await repo.signing_secret(session, user.id)
                secret = row.secret if row is not None else None
            if delivery.channel in WEBHOOK_CHANNELS:
                endpoint = await repo.endpoint(session, endpoint_id(user.id, delivery.target))
                disabled = endpoint.disabled_at if endpoint is not None else None
        channel = CHANNELS.get(delivery.channel)
        ctx = SendContext(
            client=self.client,
            mailer=self.mailer,
            public_url=self.settings.public_url,
            unsubscribe_token=self._unsubscribe_token,
            signing_secret=secret,
        )
        if disabled is not None:  # not attempted: its owner re-enables the endpoint
            result = SendResult(False, error=health.DISABLED, final=True)
            await self._record(delivery, result, skipped=True)
            return
        if channel is None:
            result = SendResult(False, error=f"unknown channel {delivery.channel}")
        else:
            result = await channel.send(ctx, delivery, user)
        await self._record(delivery, result)

    async def _record(
        self, delivery: NotificationDelivery, result: SendResult, *, skipped: bool = False
    ) -> None:
        """The attempt on its row: delivered, retried on the schedule, or failed; a webhook's
        also on its endpoint (which may disable it: then no retry). ``skipped``: not attempted
        (its endpoint is disabled), so no attempt is counted."""
        attempts = delivery.attempts + (0 if skipped else 1)
        now = self.clock()
        delay = None
        if not (result.ok or result.final):
            delay = retry_delay(self.settings.notifications, attempts, result.retry_after)
        values: dict[str, Any] = {
            "attempts": attempts,
            "last_status_code": result.status_code,
            "last_error": result.error,
        }
        async with self.db.transaction() as session:
            if not skipped and delivery.channel in WEBHOOK_CHANNELS:
                disabled = await health.after_attempt(
                    session, self.settings.notifications, delivery, result, now, last=delay is None
                )
                delay = None if disabled else delay
            if result.ok:
                values.update(state=DeliveryState.DELIVERED, delivered_at=now, next_attempt_at=None)
            elif delay is None:
                values.update(state=DeliveryState.FAILED, next_attempt_at=None)
            else:
                values.update(state=DeliveryState.PENDING, next_attempt_at=now + delay)
            await repo.record(session, delivery.id, **values)
