from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="PackOut")


@_attrs_define
class PackOut:
    """Read from a ``CreditPack`` row.

    Attributes:
        active (bool): On sale; archived packs stay for old purchases.
        credits_ (float): Credits the pack adds to the balance.
        currency (str): ISO 4217 code, lower case (Stripe's form).
        display_price (str): The price as shown to people: `10.00 EUR`, `1000 JPY`, `1.500 KWD`.
        id (UUID):
        name (str):
        price (int): In the currency's minor units, as Stripe counts them: cents for EUR and USD, yen for JPY (zero-
            decimal), fils for KWD (three decimals; docs/billing.md).
    """

    active: bool
    credits_: float
    currency: str
    display_price: str
    id: UUID
    name: str
    price: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        active = self.active

        credits_ = self.credits_

        currency = self.currency

        display_price = self.display_price

        id = str(self.id)

        name = self.name

        price = self.price

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "active": active,
                "credits": credits_,
                "currency": currency,
                "displayPrice": display_price,
                "id": id,
                "name": name,
                "price": price,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        active = d.pop("active")

        credits_ = d.pop("credits")

        currency = d.pop("currency")

        display_price = d.pop("displayPrice")

        id = UUID(d.pop("id"))

        name = d.pop("name")

        price = d.pop("price")

        pack_out = cls(
            active=active,
            credits_=credits_,
            currency=currency,
            display_price=display_price,
            id=id,
            name=name,
            price=price,
        )

        pack_out.additional_properties = d
        return pack_out

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
