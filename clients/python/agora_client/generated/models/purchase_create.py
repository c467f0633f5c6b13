from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="PurchaseCreate")


@_attrs_define
class PurchaseCreate:
    """
    Attributes:
        pack_id (UUID): The credit pack to buy (GET /v1/credits/packs).
        promotion_code (None | str | Unset): A promotion code: bonus credits or a percentage off the pack's price.
    """

    pack_id: UUID
    promotion_code: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        pack_id = str(self.pack_id)

        promotion_code: None | str | Unset
        if isinstance(self.promotion_code, Unset):
            promotion_code = UNSET
        else:
            promotion_code = self.promotion_code

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "packId": pack_id,
            }
        )
        if promotion_code is not UNSET:
            field_dict["promotionCode"] = promotion_code

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        pack_id = UUID(d.pop("packId"))

        def _parse_promotion_code(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        promotion_code = _parse_promotion_code(d.pop("promotionCode", UNSET))

        purchase_create = cls(
            pack_id=pack_id,
            promotion_code=promotion_code,
        )

        return purchase_create
