from __future__ import annotations

from pydantic import BaseModel, Field

from agora.kit.envelopes import ApiModel
from agora.kit.timeutil import isoformat
from agora.models import User


class UserOut(BaseModel):
    id: str
    createdAt: str
    updatedAt: str
    name: str
    email: str
    termsAccepted: bool
    marketingOptIn: bool
    jobStatusNotificationsOptIn: bool
    paymentCustomerId: str | None

    @classmethod
    def of(cls, user: User) -> UserOut:
        return cls(
            id=str(user.id),
            createdAt=isoformat(user.created_at) or "",
            updatedAt=isoformat(user.updated_at) or "",
            name=user.name,
            email=user.email,
            termsAccepted=user.terms_accepted,
            marketingOptIn=user.marketing_opt_in,
            jobStatusNotificationsOptIn=user.job_status_notifications_opt_in,
            paymentCustomerId=user.payment_customer_id,
        )


class ProfileUpdate(ApiModel):
    """The editable profile. PUT replaces it (see service.replace_profile); PATCH merges it."""

    name: str | None = Field(default=None, min_length=1, max_length=200)
    marketingOptIn: bool | None = None
    jobStatusNotificationsOptIn: bool | None = None
