from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar
from uuid import UUID

from attrs import define as _attrs_define

T = TypeVar("T", bound="PurchaseCreate")


@_attrs_define
class PurchaseCreate:
    """
    Attributes:
        pack_id (UUID): The credit pack to buy (GET /v1/credits/packs).
    """

    pack_id: UUID

    def to_dict(self) -> dict[str, Any]:
        pack_id = str(self.pack_id)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "packId": pack_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        pack_id = UUID(d.pop("packId"))

        purchase_create = cls(
            pack_id=pack_id,
        )

        return purchase_create
