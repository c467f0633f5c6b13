from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="PromotionCodeUpdate")


@_attrs_define
class PromotionCodeUpdate:
    """
    Attributes:
        active (bool):
    """

    active: bool

    def to_dict(self) -> dict[str, Any]:
        active = self.active

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "active": active,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        active = d.pop("active")

        promotion_code_update = cls(
            active=active,
        )

        return promotion_code_update
