from __future__ import annotations

from typing import Any
from uuid import UUID

from pydantic import Field

from agora.kit.envelopes import ApiModel
from agora.kit.schemas import Schema, UtcDateTime


class WebhookIn(ApiModel):
    url: str = Field(min_length=1, max_length=2000, description="http(s) URL to POST to.")


class WebhookOut(Schema):
    url: str | None
    secret: str | None = Field(
        description="Signing secret; returned only when the webhook is set (keep it)."
    )
    job_status_notifications_opt_in: bool


class DeliveryOut(Schema):
    """Read from a ``NotificationDelivery`` row."""

    id: UUID
    channel: str
    event: str
    target: str
    job_id: UUID | None
    state: str = Field(description="pending | sending | delivered | failed")
    attempts: int
    last_status_code: int | None
    last_error: str | None
    next_attempt_at: UtcDateTime | None
    delivered_at: UtcDateTime | None
    created_at: UtcDateTime
    payload: dict[str, Any]
