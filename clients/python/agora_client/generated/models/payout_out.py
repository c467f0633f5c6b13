from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="PayoutOut")


@_attrs_define
class PayoutOut:
    """
    Attributes:
        amount (int): Minor units transferred
        amount_reversed (int): Minor units Stripe reversed (back in the balance)
        attempt (int): The period's try (a failed one is tried again)
        created_at (datetime.datetime):
        currency (str):
        failure (None | str): Why Stripe refused it
        id (UUID):
        period (str): The month (UTC, YYYY-MM) of the run that made it
        status (str): pending | paid | failed | reversed
        stripe_transfer_id (None | str):
    """

    amount: int
    amount_reversed: int
    attempt: int
    created_at: datetime.datetime
    currency: str
    failure: None | str
    id: UUID
    period: str
    status: str
    stripe_transfer_id: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        amount = self.amount

        amount_reversed = self.amount_reversed

        attempt = self.attempt

        created_at = self.created_at.isoformat()

        currency = self.currency

        failure: None | str
        failure = self.failure

        id = str(self.id)

        period = self.period

        status = self.status

        stripe_transfer_id: None | str
        stripe_transfer_id = self.stripe_transfer_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "amount": amount,
                "amountReversed": amount_reversed,
                "attempt": attempt,
                "createdAt": created_at,
                "currency": currency,
                "failure": failure,
                "id": id,
                "period": period,
                "status": status,
                "stripeTransferId": stripe_transfer_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        amount = d.pop("amount")

        amount_reversed = d.pop("amountReversed")

        attempt = d.pop("attempt")

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        currency = d.pop("currency")

        def _parse_failure(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        failure = _parse_failure(d.pop("failure"))

        id = UUID(d.pop("id"))

        period = d.pop("period")

        status = d.pop("status")

        def _parse_stripe_transfer_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        stripe_transfer_id = _parse_stripe_transfer_id(d.pop("stripeTransferId"))

        payout_out = cls(
            amount=amount,
            amount_reversed=amount_reversed,
            attempt=attempt,
            created_at=created_at,
            currency=currency,
            failure=failure,
            id=id,
            period=period,
            status=status,
            stripe_transfer_id=stripe_transfer_id,
        )

        payout_out.additional_properties = d
        return payout_out

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
