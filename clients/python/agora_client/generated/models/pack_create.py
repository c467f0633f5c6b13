from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="PackCreate")


@_attrs_define
class PackCreate:
    """
    Attributes:
        credits_ (float | str): Credits in the pack, in display units.
        currency (str): ISO 4217, e.g. eur.
        name (str):
        price (int): In the currency's minor units, as Stripe counts them: cents for EUR and USD, yen for JPY (zero-
            decimal), fils for KWD (three decimals; docs/billing.md). At least Stripe's minimum charge in the currency; a
            three-decimal currency's price ends in 0.
    """

    credits_: float | str
    currency: str
    name: str
    price: int

    def to_dict(self) -> dict[str, Any]:
        credits_: float | str
        credits_ = self.credits_

        currency = self.currency

        name = self.name

        price = self.price

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "credits": credits_,
                "currency": currency,
                "name": name,
                "price": price,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_credits_(data: object) -> float | str:
            return cast(float | str, data)

        credits_ = _parse_credits_(d.pop("credits"))

        currency = d.pop("currency")

        name = d.pop("name")

        price = d.pop("price")

        pack_create = cls(
            credits_=credits_,
            currency=currency,
            name=name,
            price=price,
        )

        return pack_create
