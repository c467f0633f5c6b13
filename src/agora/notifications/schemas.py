from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from agora.kit.envelopes import ApiModel
from agora.kit.timeutil import isoformat
from agora.models import NotificationDelivery


class WebhookIn(ApiModel):
    url: str = Field(min_length=1, max_length=2000, description="http(s) URL to POST to.")


class WebhookOut(BaseModel):
    url: str | None
    secret: str | None = Field(
        description="Signing secret; returned only when the webhook is set (keep it)."
    )
    jobStatusNotificationsOptIn: bool


class DeliveryOut(BaseModel):
    id: str
    channel: str
    event: str
    target: str
    jobId: str | None
    state: str = Field(description="pending | sending | delivered | failed")
    attempts: int
    lastStatusCode: int | None
    lastError: str | None
    nextAttemptAt: str | None
    deliveredAt: str | None
    createdAt: str
    payload: dict[str, Any]

    @classmethod
    def of(cls, d: NotificationDelivery) -> DeliveryOut:
        return cls(
            id=str(d.id),
            channel=d.channel,
            event=d.event,
            target=d.target,
            jobId=str(d.job_id) if d.job_id else None,
            state=d.state,
            attempts=d.attempts,
            lastStatusCode=d.last_status_code,
            lastError=d.last_error,
            nextAttemptAt=isoformat(d.next_attempt_at),
            deliveredAt=isoformat(d.delivered_at),
            createdAt=isoformat(d.created_at) or "",
            payload=d.payload,
        )
