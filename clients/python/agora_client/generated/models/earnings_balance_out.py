from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="EarningsBalanceOut")


@_attrs_define
class EarningsBalanceOut:
    """
    Attributes:
        credits_ (float): The same earnings in credits (net of refunds)
        currency (str):
        display_payable (str):
        display_pending (str):
        paid_out (int): Minor units paid out (pending or paid payouts)
        payable (int): Past the holdback, less what was paid out (minor units); negative after a refund of earnings
            already paid out
        pending (int): Held back (minor units): not yet past the holdback
        pending_credits (float):
        total (int): pending + payable (minor units)
    """

    credits_: float
    currency: str
    display_payable: str
    display_pending: str
    paid_out: int
    payable: int
    pending: int
    pending_credits: float
    total: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        credits_ = self.credits_

        currency = self.currency

        display_payable = self.display_payable

        display_pending = self.display_pending

        paid_out = self.paid_out

        payable = self.payable

        pending = self.pending

        pending_credits = self.pending_credits

        total = self.total

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "credits": credits_,
                "currency": currency,
                "displayPayable": display_payable,
                "displayPending": display_pending,
                "paidOut": paid_out,
                "payable": payable,
                "pending": pending,
                "pendingCredits": pending_credits,
                "total": total,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        credits_ = d.pop("credits")

        currency = d.pop("currency")

        display_payable = d.pop("displayPayable")

        display_pending = d.pop("displayPending")

        paid_out = d.pop("paidOut")

        payable = d.pop("payable")

        pending = d.pop("pending")

        pending_credits = d.pop("pendingCredits")

        total = d.pop("total")

        earnings_balance_out = cls(
            credits_=credits_,
            currency=currency,
            display_payable=display_payable,
            display_pending=display_pending,
            paid_out=paid_out,
            payable=payable,
            pending=pending,
            pending_credits=pending_credits,
            total=total,
        )

        earnings_balance_out.additional_properties = d
        return earnings_balance_out

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
