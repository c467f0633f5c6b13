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


class NotificationOut(Schema):
    """Read from a ``Notification`` row."""

    id: UUID
    kind: str
    subject_ref: str | None = Field(description='What it is about: "job:<id>", …')
    title: str
    data: dict[str, Any]
    link: str | None = Field(description="Where it points in the web app (a path).")
    read: bool
    read_at: UtcDateTime | None
    created_at: UtcDateTime


class NotificationPage(Schema):
    items: list[NotificationOut]
    next_cursor: str | None = Field(description="Pass as `cursor` for the next (older) page.")
    unread_count: int


class UnreadCountOut(Schema):
    unread_count: int


class MarkedOut(Schema):
    changed: int = Field(description="How many notifications changed.")
    unread_count: int


class ReadByReferenceIn(ApiModel):
    subjectRef: str = Field(min_length=1, max_length=120, description='e.g. "job:<id>"')


class PreferenceOut(Schema):
    kind: str
    description: str
    inbox: bool
    mail: bool


class PreferenceIn(ApiModel):
    kind: str = Field(min_length=1, max_length=60)
    inbox: bool | None = None
    mail: bool | None = None


class PreferencesIn(ApiModel):
    preferences: list[PreferenceIn] = Field(max_length=100)


class SigningSecretOut(Schema):
    secret: str = Field(description="Standard Webhooks secret (whsec_…) of your per-job webhooks.")


class WebhookEndpointOut(Schema):
    """Read from a ``WebhookEndpoint`` row: a webhook URL that a delivery failed to reach."""

    id: UUID
    url: str
    enabled: bool = Field(description="False: deliveries to it are not attempted.")
    failing_since: UtcDateTime | None = Field(
        description="First failed attempt since the last delivered one (None: healthy)."
    )
    disabled_at: UtcDateTime | None
    disabled_reason: str | None
