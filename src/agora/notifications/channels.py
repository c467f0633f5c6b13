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

from agora.kit.outbound import (
    OutboundRefused,
    OutboundTimeout,
    OutboundTooLarge,
    OutboundUnreachable,
    send_limited,
)
from agora.models import NotificationDelivery, User

# A receiver's answer is only read for its status: a little of it is enough.
MAX_ANSWER_BYTES = 64 * 1024


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
        # Bounded in bytes and in total time (a receiver dripping bytes cannot hold a sender
        # slot); errors never say which step failed (no port-scanning through the log).
        timeout = client.timeout.read or 10.0
        try:
            answer = await send_limited(
                client,
                "POST",
                delivery.target,
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
        return SendResult(False, answer.status_code, f"answered {answer.status_code}")


CHANNELS: dict[str, Channel] = {}


def register(channel: Channel) -> None:
    CHANNELS[channel.name] = channel


register(WebhookChannel())
