from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from sqlalchemy import Boolean, Index, Integer, String, Text, Uuid
from sqlalchemy.orm import Mapped, mapped_column

from agora.models.base import Base, JSONType, Timestamp, created_at_column, foreign_key, id_column


class NotificationDelivery(Base):
    """The delivery log of job status notifications (an outbox: written in the job's
    transaction, sent after commit, retried with back-off)."""

    __tablename__ = "notification_deliveries"
    __table_args__ = (Index("ix_notifications_pending", "state", "next_attempt_at"),)

    id: Mapped[uuid.UUID] = id_column()
    user_id: Mapped[uuid.UUID] = foreign_key("users.id", "CASCADE", nullable=False, index=True)
    job_id: Mapped[uuid.UUID | None] = foreign_key("jobs.id", "SET NULL")
    channel: Mapped[str] = mapped_column(String(20), nullable=False, default="webhook")
    event: Mapped[str] = mapped_column(String(60), nullable=False)
    target: Mapped[str] = mapped_column(String(2000), nullable=False)
    payload: Mapped[dict[str, Any]] = mapped_column(JSONType, nullable=False)
    state: Mapped[str] = mapped_column(String(20), nullable=False, default="pending")
    attempts: Mapped[int] = mapped_column(Integer, nullable=False, default=0)
    next_attempt_at: Mapped[datetime | None] = mapped_column(Timestamp)
    last_status_code: Mapped[int | None] = mapped_column(Integer)
    last_error: Mapped[str | None] = mapped_column(Text)
    delivered_at: Mapped[datetime | None] = mapped_column(Timestamp)
    created_at: Mapped[datetime] = created_at_column()


class Notification(Base):
    """One notification for one person (the in-app inbox): written by ``notifications.notify`` in
    the transaction of the event it tells about."""

    __tablename__ = "notifications"
    __table_args__ = (
        Index("ix_notifications_user_id_id", "user_id", "id"),
        Index("ix_notifications_user_unread", "user_id", "read_at"),
        Index("ix_notifications_user_subject", "user_id", "subject_ref"),
    )

    id: Mapped[uuid.UUID] = id_column()
    user_id: Mapped[uuid.UUID] = foreign_key("users.id", "CASCADE", nullable=False)
    kind: Mapped[str] = mapped_column(String(60), nullable=False)
    # What it is about, "<type>:<id>" (e.g. "job:0193…"): read by reference marks these read.
    subject_ref: Mapped[str | None] = mapped_column(String(120))
    title: Mapped[str] = mapped_column(String(300), nullable=False)
    data: Mapped[dict[str, Any]] = mapped_column(JSONType, nullable=False)
    read_at: Mapped[datetime | None] = mapped_column(Timestamp)
    created_at: Mapped[datetime] = created_at_column()


class NotificationPreference(Base):
    """A person's choice for one kind on one channel (absent: the kind's default)."""

    __tablename__ = "notification_preferences"

    user_id: Mapped[uuid.UUID] = foreign_key("users.id", "CASCADE", primary_key=True)
    kind: Mapped[str] = mapped_column(String(60), primary_key=True)
    channel: Mapped[str] = mapped_column(String(20), primary_key=True)
    enabled: Mapped[bool] = mapped_column(Boolean, nullable=False)


class JobWebhook(Base):
    """A job's own webhook (``webhook`` and ``webhookEventsFilter`` at creation)."""

    __tablename__ = "job_webhooks"

    job_id: Mapped[uuid.UUID] = foreign_key("jobs.id", "CASCADE", primary_key=True)
    user_id: Mapped[uuid.UUID] = foreign_key("users.id", "CASCADE", nullable=False)
    url: Mapped[str] = mapped_column(String(2000), nullable=False)
    events: Mapped[list[str] | None] = mapped_column(JSONType)  # None: every event
    created_at: Mapped[datetime] = created_at_column()


class WebhookSigningSecret(Base):
    """A person's Standard Webhooks signing secret for per-job webhooks (``whsec_<base64>``)."""

    __tablename__ = "webhook_signing_secrets"

    user_id: Mapped[uuid.UUID] = foreign_key("users.id", "CASCADE", primary_key=True)
    secret: Mapped[str] = mapped_column(String(200), nullable=False)
    created_at: Mapped[datetime] = created_at_column()


class WebhookEndpoint(Base):
    """The health of one webhook URL of one person (account-wide and per-job webhooks alike),
    written when a delivery to it fails: failing since when (cleared by a delivered one), and
    disabled (a 410 Gone, or every delivery failing for ``disable_after_days``) until the owner
    re-enables it. Its id is ``endpoint_id(user_id, url)``, so one URL is one row."""

    __tablename__ = "webhook_endpoints"

    id: Mapped[uuid.UUID] = mapped_column(Uuid(), primary_key=True)
    user_id: Mapped[uuid.UUID] = foreign_key("users.id", "CASCADE", nullable=False, index=True)
    url: Mapped[str] = mapped_column(String(2000), nullable=False)
    failing_since: Mapped[datetime | None] = mapped_column(Timestamp)
    disabled_at: Mapped[datetime | None] = mapped_column(Timestamp)
    disabled_reason: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[datetime] = created_at_column()


def endpoint_id(user_id: uuid.UUID, url: str) -> uuid.UUID:
    """A webhook endpoint's id: the same for the same person and URL (UUIDv5)."""
    return uuid.uuid5(user_id, url)
