from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="AgentRegistration")


@_attrs_define
class AgentRegistration:
    """
    Attributes:
        base_url (str):
        name (str):
        categories (list[str] | Unset):
        description (str | Unset):  Default: ''.
        is_shown (bool | Unset):  Default: True.
        price (float | int | str | Unset): Base price in credits (fee added). Default: 0.0.
        tags (list[str] | Unset):
        verify (bool | Unset):  Default: False.
    """

    base_url: str
    name: str
    categories: list[str] | Unset = UNSET
    description: str | Unset = ""
    is_shown: bool | Unset = True
    price: float | int | str | Unset = 0.0
    tags: list[str] | Unset = UNSET
    verify: bool | Unset = False

    def to_dict(self) -> dict[str, Any]:
        base_url = self.base_url

        name = self.name

        categories: list[str] | Unset = UNSET
        if not isinstance(self.categories, Unset):
            categories = self.categories

        description = self.description

        is_shown = self.is_shown

        price: float | int | str | Unset
        if isinstance(self.price, Unset):
            price = UNSET
        else:
            price = self.price

        tags: list[str] | Unset = UNSET
        if not isinstance(self.tags, Unset):
            tags = self.tags

        verify = self.verify

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "baseUrl": base_url,
                "name": name,
            }
        )
        if categories is not UNSET:
            field_dict["categories"] = categories
        if description is not UNSET:
            field_dict["description"] = description
        if is_shown is not UNSET:
            field_dict["isShown"] = is_shown
        if price is not UNSET:
            field_dict["price"] = price
        if tags is not UNSET:
            field_dict["tags"] = tags
        if verify is not UNSET:
            field_dict["verify"] = verify

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        base_url = d.pop("baseUrl")

        name = d.pop("name")

        categories = cast(list[str], d.pop("categories", UNSET))

        description = d.pop("description", UNSET)

        is_shown = d.pop("isShown", UNSET)

        def _parse_price(data: object) -> float | int | str | Unset:
            if isinstance(data, Unset):
                return data
            return cast(float | int | str | Unset, data)

        price = _parse_price(d.pop("price", UNSET))

        tags = cast(list[str], d.pop("tags", UNSET))

        verify = d.pop("verify", UNSET)

        agent_registration = cls(
            base_url=base_url,
            name=name,
            categories=categories,
            description=description,
            is_shown=is_shown,
            price=price,
            tags=tags,
            verify=verify,
        )

        return agent_registration
