from __future__ import annotations

import uuid
from datetime import datetime

from sqlalchemy import Boolean, String, false
from sqlalchemy.orm import Mapped, mapped_column

from agora.models.base import Base, Timestamp, created_at_column, id_column, updated_at_column


class User(Base):
    __tablename__ = "users"

    id: Mapped[uuid.UUID] = id_column()
    email: Mapped[str] = mapped_column(String(320), unique=True, nullable=False)
    name: Mapped[str] = mapped_column(String(200), nullable=False)
    image: Mapped[str | None] = mapped_column(String(2000))
    terms_accepted: Mapped[bool] = mapped_column(Boolean, nullable=False, default=False)
    marketing_opt_in: Mapped[bool] = mapped_column(Boolean, nullable=False, default=False)
    job_status_notifications_opt_in: Mapped[bool] = mapped_column(
        Boolean, nullable=False, default=False
    )
    payment_customer_id: Mapped[str | None] = mapped_column(String(200))
    # Notification channel for job status changes (signed webhook); null = no webhook.
    notification_webhook_url: Mapped[str | None] = mapped_column(String(2000))
    notification_webhook_secret: Mapped[str | None] = mapped_column(String(200))
    # Accounts people run themselves: Argon2id hash (null: no password, e.g. operator-made users
    # or magic-link only) and when the email address was proven.
    password_hash: Mapped[str | None] = mapped_column(String(200))
    email_verified_at: Mapped[datetime | None] = mapped_column(Timestamp)
    # An operator suspended the account (admin/): no sign-in; its sessions and keys were revoked.
    suspended_at: Mapped[datetime | None] = mapped_column(Timestamp)
    # A passkey (or a recovery code) is asked after the password or the magic link
    # (docs/accounts.md, "Passkeys").
    passkey_second_step: Mapped[bool] = mapped_column(
        Boolean, nullable=False, default=False, server_default=false()
    )
    created_at: Mapped[datetime] = created_at_column()
    updated_at: Mapped[datetime] = updated_at_column()
