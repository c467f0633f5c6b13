from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="UserOut")


@_attrs_define
class UserOut:
    """Read from a ``User`` row.

    Attributes:
        created_at (datetime.datetime):
        email (str):
        id (UUID):
        job_status_notifications_opt_in (bool):
        marketing_opt_in (bool):
        name (str):
        payment_customer_id (None | str):
        terms_accepted (bool):
        updated_at (datetime.datetime):
        stripe_customer_id (None | str | Unset): Always null: Agora has no Stripe customer (Sokosumi clients).
    """

    created_at: datetime.datetime
    email: str
    id: UUID
    job_status_notifications_opt_in: bool
    marketing_opt_in: bool
    name: str
    payment_customer_id: None | str
    terms_accepted: bool
    updated_at: datetime.datetime
    stripe_customer_id: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at.isoformat()

        email = self.email

        id = str(self.id)

        job_status_notifications_opt_in = self.job_status_notifications_opt_in

        marketing_opt_in = self.marketing_opt_in

        name = self.name

        payment_customer_id: None | str
        payment_customer_id = self.payment_customer_id

        terms_accepted = self.terms_accepted

        updated_at = self.updated_at.isoformat()

        stripe_customer_id: None | str | Unset
        if isinstance(self.stripe_customer_id, Unset):
            stripe_customer_id = UNSET
        else:
            stripe_customer_id = self.stripe_customer_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "createdAt": created_at,
                "email": email,
                "id": id,
                "jobStatusNotificationsOptIn": job_status_notifications_opt_in,
                "marketingOptIn": marketing_opt_in,
                "name": name,
                "paymentCustomerId": payment_customer_id,
                "termsAccepted": terms_accepted,
                "updatedAt": updated_at,
            }
        )
        if stripe_customer_id is not UNSET:
            field_dict["stripeCustomerId"] = stripe_customer_id

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        email = d.pop("email")

        id = UUID(d.pop("id"))

        job_status_notifications_opt_in = d.pop("jobStatusNotificationsOptIn")

        marketing_opt_in = d.pop("marketingOptIn")

        name = d.pop("name")

        def _parse_payment_customer_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        payment_customer_id = _parse_payment_customer_id(d.pop("paymentCustomerId"))

        terms_accepted = d.pop("termsAccepted")

        updated_at = datetime.datetime.fromisoformat(d.pop("updatedAt"))

        def _parse_stripe_customer_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        stripe_customer_id = _parse_stripe_customer_id(d.pop("stripeCustomerId", UNSET))

        user_out = cls(
            created_at=created_at,
            email=email,
            id=id,
            job_status_notifications_opt_in=job_status_notifications_opt_in,
            marketing_opt_in=marketing_opt_in,
            name=name,
            payment_customer_id=payment_customer_id,
            terms_accepted=terms_accepted,
            updated_at=updated_at,
            stripe_customer_id=stripe_customer_id,
        )

        user_out.additional_properties = d
        return user_out

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
