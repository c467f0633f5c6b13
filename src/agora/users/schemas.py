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


class DataExportOut(Schema):
    """One data export (docs/accounts.md, "Your data"): pending → ready (mailed) → downloaded |
    expired | failed."""

    id: UUID
    state: str
    created_at: UtcDateTime
    ready_at: UtcDateTime | None
    expires_at: UtcDateTime | None
    downloaded_at: UtcDateTime | None
    size: int | None


class AccountDeletionOut(Schema):
    """The account's deletion (docs/accounts.md, "Deleting your account"): requested (a mail
    asks to confirm) → scheduled (erased at ``eraseAfter`` unless the person signs in) →
    cancelled | erased; ``none`` when never asked."""

    state: str
    requested_at: UtcDateTime | None = None
    confirmed_at: UtcDateTime | None = None
    erase_after: UtcDateTime | None = None
    cancelled_at: UtcDateTime | None = None


class DownloadIn(ApiModel):
    token: str = Field(max_length=200)
