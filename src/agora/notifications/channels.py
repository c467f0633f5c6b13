"""Delivery channels for job status notifications. A channel says where a user's notifications
go (``target``) and how one is sent; add one by implementing ``Channel`` and ``register``-ing it.

``webhook``: POST of the JSON payload to the user's URL, signed with the user's secret:
``X-Agora-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>``.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import time
from dataclasses import dataclass
from typing import Any, Protocol

import httpx2

from agora.models import NotificationDelivery, User


@dataclass(frozen=True)
class SendResult:
    ok: bool
    status_code: int | None = None
    error: str | None = None


class Channel(Protocol):
    name: str

    def target(self, user: User) -> str | None:
        """Where this user's notifications go on this channel (None: not configured)."""

    async def send(
        self, client: httpx2.AsyncClient, delivery: NotificationDelivery, user: User
    ) -> SendResult: ...


def sign(secret: str, timestamp: int, body: bytes) -> str:
    digest = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256)
    return f"t={timestamp},v1={digest.hexdigest()}"


def encode(payload: dict[str, Any]) -> bytes:
    return json.dumps(payload, separators=(",", ":"), ensure_ascii=False).encode()


class WebhookChannel:
    name = "webhook"

    def target(self, user: User) -> str | None:
        return user.notification_webhook_url or None

    async def send(
        self, client: httpx2.AsyncClient, delivery: NotificationDelivery, user: User
    ) -> SendResult:
        body = encode(delivery.payload)
        headers = {
            "content-type": "application/json",
            "user-agent": "agora-notifications/1",
            "x-agora-event": delivery.event,
            "x-agora-delivery": str(delivery.id),
        }
        if user.notification_webhook_secret:
            headers["x-agora-signature"] = sign(
                user.notification_webhook_secret, int(time.time()), body
            )
        try:
            response = await client.post(delivery.target, content=body, headers=headers)
        except httpx2.TimeoutException:
            return SendResult(False, error="timed out")
        except (httpx2.TransportError, OSError) as exc:
            return SendResult(False, error=type(exc).__name__)
        if 200 <= response.status_code < 300:
            return SendResult(True, response.status_code)
        return SendResult(False, response.status_code, f"answered {response.status_code}")


CHANNELS: dict[str, Channel] = {}


def register(channel: Channel) -> None:
    CHANNELS[channel.name] = channel


register(WebhookChannel())
