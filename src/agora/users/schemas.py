from __future__ import annotations

from uuid import UUID

from pydantic import Field

from agora.kit.envelopes import ApiModel
from agora.kit.schemas import Schema, UtcDateTime


class UserOut(Schema):
    """Read from a ``User`` row."""

    id: UUID
    created_at: UtcDateTime
    updated_at: UtcDateTime
    name: str
    email: str
    terms_accepted: bool
    marketing_opt_in: bool
    job_status_notifications_opt_in: bool
    payment_customer_id: str | None
    stripe_customer_id: str | None = Field(
        default=None, description="Always null: Agora has no Stripe customer (Sokosumi clients)."
    )


class ProfileUpdate(ApiModel):
    """The editable profile. PUT replaces it (see service.replace_profile); PATCH merges it."""

    name: str | None = Field(default=None, min_length=1, max_length=200)
    marketingOptIn: bool | None = None
    jobStatusNotificationsOptIn: bool | None = None
