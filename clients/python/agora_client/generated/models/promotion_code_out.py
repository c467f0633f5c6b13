from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="PromotionCodeOut")


@_attrs_define
class PromotionCodeOut:
    """
    Attributes:
        active (bool):
        bonus_credits (float):
        code (str):
        expires_at (datetime.datetime | None):
        id (UUID):
        max_uses (int | None):
        per_person (int | None):
        percent_off (int):
        uses (int):
    """

    active: bool
    bonus_credits: float
    code: str
    expires_at: datetime.datetime | None
    id: UUID
    max_uses: int | None
    per_person: int | None
    percent_off: int
    uses: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        active = self.active

        bonus_credits = self.bonus_credits

        code = self.code

        expires_at: None | str
        if isinstance(self.expires_at, datetime.datetime):
            expires_at = self.expires_at.isoformat()
        else:
            expires_at = self.expires_at

        id = str(self.id)

        max_uses: int | None
        max_uses = self.max_uses

        per_person: int | None
        per_person = self.per_person

        percent_off = self.percent_off

        uses = self.uses

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "active": active,
                "bonusCredits": bonus_credits,
                "code": code,
                "expiresAt": expires_at,
                "id": id,
                "maxUses": max_uses,
                "perPerson": per_person,
                "percentOff": percent_off,
                "uses": uses,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        active = d.pop("active")

        bonus_credits = d.pop("bonusCredits")

        code = d.pop("code")

        def _parse_expires_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                expires_at_type_0 = datetime.datetime.fromisoformat(data)

                return expires_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        expires_at = _parse_expires_at(d.pop("expiresAt"))

        id = UUID(d.pop("id"))

        def _parse_max_uses(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        max_uses = _parse_max_uses(d.pop("maxUses"))

        def _parse_per_person(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        per_person = _parse_per_person(d.pop("perPerson"))

        percent_off = d.pop("percentOff")

        uses = d.pop("uses")

        promotion_code_out = cls(
            active=active,
            bonus_credits=bonus_credits,
            code=code,
            expires_at=expires_at,
            id=id,
            max_uses=max_uses,
            per_person=per_person,
            percent_off=percent_off,
            uses=uses,
        )

        promotion_code_out.additional_properties = d
        return promotion_code_out

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
