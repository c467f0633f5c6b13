from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="PromotionCodeCreate")


@_attrs_define
class PromotionCodeCreate:
    """
    Attributes:
        code (str): Letters, digits, - or _
        bonus_credits (float | None | str | Unset): Credits added to the pack (display units)
        expires_at (datetime.datetime | None | Unset):
        max_uses (int | None | Unset): In total
        per_person (int | None | Unset): null: no limit Default: 1.
        percent_off (int | None | Unset): Off the pack's price
    """

    code: str
    bonus_credits: float | None | str | Unset = UNSET
    expires_at: datetime.datetime | None | Unset = UNSET
    max_uses: int | None | Unset = UNSET
    per_person: int | None | Unset = 1
    percent_off: int | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        code = self.code

        bonus_credits: float | None | str | Unset
        if isinstance(self.bonus_credits, Unset):
            bonus_credits = UNSET
        else:
            bonus_credits = self.bonus_credits

        expires_at: None | str | Unset
        if isinstance(self.expires_at, Unset):
            expires_at = UNSET
        elif isinstance(self.expires_at, datetime.datetime):
            expires_at = self.expires_at.isoformat()
        else:
            expires_at = self.expires_at

        max_uses: int | None | Unset
        if isinstance(self.max_uses, Unset):
            max_uses = UNSET
        else:
            max_uses = self.max_uses

        per_person: int | None | Unset
        if isinstance(self.per_person, Unset):
            per_person = UNSET
        else:
            per_person = self.per_person

        percent_off: int | None | Unset
        if isinstance(self.percent_off, Unset):
            percent_off = UNSET
        else:
            percent_off = self.percent_off

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "code": code,
            }
        )
        if bonus_credits is not UNSET:
            field_dict["bonusCredits"] = bonus_credits
        if expires_at is not UNSET:
            field_dict["expiresAt"] = expires_at
        if max_uses is not UNSET:
            field_dict["maxUses"] = max_uses
        if per_person is not UNSET:
            field_dict["perPerson"] = per_person
        if percent_off is not UNSET:
            field_dict["percentOff"] = percent_off

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        code = d.pop("code")

        def _parse_bonus_credits(data: object) -> float | None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | str | Unset, data)

        bonus_credits = _parse_bonus_credits(d.pop("bonusCredits", UNSET))

        def _parse_expires_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                expires_at_type_0 = datetime.datetime.fromisoformat(data)

                return expires_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        expires_at = _parse_expires_at(d.pop("expiresAt", UNSET))

        def _parse_max_uses(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        max_uses = _parse_max_uses(d.pop("maxUses", UNSET))

        def _parse_per_person(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        per_person = _parse_per_person(d.pop("perPerson", UNSET))

        def _parse_percent_off(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        percent_off = _parse_percent_off(d.pop("percentOff", UNSET))

        promotion_code_create = cls(
            code=code,
            bonus_credits=bonus_credits,
            expires_at=expires_at,
            max_uses=max_uses,
            per_person=per_person,
            percent_off=percent_off,
        )

        return promotion_code_create
