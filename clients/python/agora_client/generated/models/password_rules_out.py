from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="PasswordRulesOut")


@_attrs_define
class PasswordRulesOut:
    """
    Attributes:
        max_length (int):
        min_length (int):
        rules (list[str]):
    """

    max_length: int
    min_length: int
    rules: list[str]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        max_length = self.max_length

        min_length = self.min_length

        rules = self.rules

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "maxLength": max_length,
                "minLength": min_length,
                "rules": rules,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        max_length = d.pop("maxLength")

        min_length = d.pop("minLength")

        rules = cast(list[str], d.pop("rules"))

        password_rules_out = cls(
            max_length=max_length,
            min_length=min_length,
            rules=rules,
        )

        password_rules_out.additional_properties = d
        return password_rules_out

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
