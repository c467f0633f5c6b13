"""Delivery channels of the outbox. A channel says where a user's notifications go (``target``)
and how one is sent; add one by implementing ``Channel`` and ``register``-ing it.

- ``webhook`` (account-wide, ``job.status_changed``): POST of the JSON payload, signed with the
  Standard Webhooks scheme (``webhook-id``, ``webhook-timestamp``, ``webhook-signature``) and, for
  one more release, the old ``X-Agora-Signature: t=<unix>,v1=<hex HMAC-SHA256(secret,
  "<t>.<body>")>``.
- ``job_webhook`` (a job's own ``webhook``): the same POST, Standard Webhooks signature with the
  owner's signing secret (``GET /v1/notifications/signing-secret``).
- ``mail``: the kind's text and HTML mail (``notifications/mail.py``) through the mail sender.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import secrets
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Protocol

import aiosmtplib
import httpx2
from standardwebhooks import Webhook

from agora.kit.mail import Mail, MailSender
from agora.kit.outbound import (
    OutboundRefused,
    OutboundTimeout,
    OutboundTooLarge,
    OutboundUnreachable,
    send_limited,
)
from agora.kit.timeutil import utcnow
from agora.models import NotificationDelivery, User
from agora.notifications.mail import UnsubscribeToken, compose
from agora.notifications.retries import THROTTLED, parse_retry_after

# A receiver's answer is only read for its status: a little of it is enough.
MAX_ANSWER_BYTES = 64 * 1024
JOB_WEBHOOK = "job_webhook"


@dataclass(frozen=True)
class SendResult:
    ok: bool
    status_code: int | None = None
    error: str | None = None
    retry_after: float | None = None  # seconds the receiver asked for (429/503 Retry-After)
    final: bool = False  # no retry can succeed (a mail with a line break in a header)


@dataclass(frozen=True)
class SendContext:
    """What a channel may use to send one delivery (read before the call; no transaction)."""

    client: httpx2.AsyncClient
    mailer: MailSender | None = None
    public_url: str = ""
    unsubscribe_token: UnsubscribeToken | None = None
    signing_secret: str | None = None  # the owner's per-job webhook secret


class Channel(Protocol):
    name: str

    def target(self, user: User) -> str | None:
        """Where this user's notifications go on this channel (None: not configured)."""

    async def send(
        self, ctx: SendContext, delivery: NotificationDelivery, user: User
    ) -> SendResult: ...


def sign(secret: str, timestamp: int, body: bytes) -> str:
    """The legacy ``X-Agora-Signature`` (kept for one release; docs/notifications.md)."""
    digest = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256)
    return f"t={timestamp},v1={digest.hexdigest()}"


def new_secret() -> str:
    """A Standard Webhooks secret: ``whsec_`` and 24 random bytes in base64."""
    return "whsec_" + base64.b64encode(secrets.token_bytes(24)).decode()


def standard_headers(secret: str, msg_id: str, timestamp: int, body: bytes) -> dict[str, str]:
    """``webhook-id``/``-timestamp``/``-signature`` (standardwebhooks.com); {} when ``secret`` is
    not a Standard Webhooks secret (one issued before they were: set the webhook again)."""
    raw = secret.removeprefix("whsec_")
    try:
        base64.b64decode(raw + "=" * (-len(raw) % 4), validate=True)
    except (binascii.Error, ValueError):
        return {}
    signature = Webhook(secret).sign(msg_id, datetime.fromtimestamp(timestamp, UTC), body.decode())
    return {
        "webhook-id": msg_id,
        "webhook-timestamp": str(timestamp),
        "webhook-signature": signature,
    }


def encode(payload: dict[str, Any]) -> bytes:
    return json.dumps(payload, separators=(",", ":"), ensure_ascii=False).encode()


async def post(
    client: httpx2.AsyncClient, url: str, body: bytes, headers: dict[str, str]
) -> SendResult:
    # Bounded in bytes and in total time (a receiver dripping bytes cannot hold a sender
    # slot); errors never say which step failed (no port-scanning through the log).
    timeout = client.timeout.read or 15.0
    try:
        answer = await send_limited(
            client,
            "POST",
            url,
            max_bytes=MAX_ANSWER_BYTES,
            total_seconds=timeout,
            content=body,
            headers=headers,
        )
    except OutboundRefused:
        return SendResult(False, error="refused by policy")
    except OutboundTimeout:
        return SendResult(False, error="timed out")
    except OutboundTooLarge:
        return SendResult(False, error="answer too large")
    except OutboundUnreachable:
        return SendResult(False, error="unreachable")
    if 200 <= answer.status_code < 300:
        return SendResult(True, answer.status_code)
    retry_after = None
    if answer.status_code in THROTTLED:
        retry_after = parse_retry_after(answer.headers.get("retry-after"), utcnow())
    return SendResult(
        False, answer.status_code, f"answered {answer.status_code}", retry_after=retry_after
    )


def _base_headers(delivery: NotificationDelivery) -> dict[str, str]:
    return {
        "content-type": "application/json",
        "user-agent": "agora-notifications/1",
        "x-agora-event": delivery.event,
        "x-agora-delivery": str(delivery.id),
    }


class WebhookChannel:
    name = "webhook"

    def target(self, user: User) -> str | None:
        return user.notification_webhook_url or None

    async def send(
        self, ctx: SendContext, delivery: NotificationDelivery, user: User
    ) -> SendResult:
        body = encode(delivery.payload)
        headers = _base_headers(delivery)
        secret = user.notification_webhook_secret
        if secret:
            now = int(time.time())
            headers["x-agora-signature"] = sign(secret, now, body)
            headers.update(standard_headers(secret, str(delivery.id), now, body))
        return await post(ctx.client, delivery.target, body, headers)


class JobWebhookChannel:
    """A job's own webhook: its URL is the delivery's target (never a user setting)."""

    name = JOB_WEBHOOK

    def target(self, user: User) -> str | None:
        return None

    async def send(
        self, ctx: SendContext, delivery: NotificationDelivery, user: User
    ) -> SendResult:
        body = encode(delivery.payload)
        headers = _base_headers(delivery)
        if ctx.signing_secret:
            headers.update(
                standard_headers(ctx.signing_secret, str(delivery.id), int(time.time()), body)
            )
        return await post(ctx.client, delivery.target, body, headers)


class MailChannel:
    name = "mail"

    def target(self, user: User) -> str | None:
        return user.email or None

    async def send(
        self, ctx: SendContext, delivery: NotificationDelivery, user: User
    ) -> SendResult:
        if ctx.mailer is None:
            return SendResult(False, error="no mail sender")
        mail = compose(
            delivery, user, public_url=ctx.public_url, unsubscribe_token=ctx.unsubscribe_token
        )
        return await send_mail(ctx.mailer, mail)


async def send_mail(mailer: MailSender, mail: Mail) -> SendResult:
    """Hand one mail to the mail sender; refusals and failures as the delivery log words them."""
    try:
        await mailer.send(mail)
    except aiosmtplib.SMTPResponseException as exc:
        return SendResult(False, exc.code, f"mail server answered {exc.code}")
    except (aiosmtplib.SMTPException, OSError, TimeoutError):
        return SendResult(False, error="mail server unreachable")
    except ValueError:  # email.policy: a line break in an address or header (kit/mail.py)
        return SendResult(False, error="mail refused: a header holds a line break", final=True)
    return SendResult(True)


CHANNELS: dict[str, Channel] = {}
# The channels that POST to a webhook endpoint (its health: notifications/health.py).
WEBHOOK_CHANNELS = frozenset({WebhookChannel.name, JobWebhookChannel.name})


def register(channel: Channel) -> None:
    CHANNELS[channel.name] = channel


register(WebhookChannel())
register(JobWebhookChannel())
register(MailChannel())
