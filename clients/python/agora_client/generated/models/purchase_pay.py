from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="PurchasePay")


@_attrs_define
class PurchasePay:
    """
    Attributes:
        payment_method (str): A PaymentMethod id (`pm_…`) from Stripe.js `createPaymentMethod`.
    """

    payment_method: str

    def to_dict(self) -> dict[str, Any]:
        payment_method = self.payment_method

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "paymentMethod": payment_method,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        payment_method = d.pop("paymentMethod")

        purchase_pay = cls(
            payment_method=payment_method,
        )

        return purchase_pay
