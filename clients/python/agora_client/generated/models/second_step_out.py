from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="SecondStepOut")


@_attrs_define
class SecondStepOut:
    """
    Attributes:
        enabled (bool):
        passkeys (int):
        unused_recovery_codes (int):
        recovery_codes (list[str] | Unset): A new set of codes, shown only in this response
    """

    enabled: bool
    passkeys: int
    unused_recovery_codes: int
    recovery_codes: list[str] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        enabled = self.enabled

        passkeys = self.passkeys

        unused_recovery_codes = self.unused_recovery_codes

        recovery_codes: list[str] | Unset = UNSET
        if not isinstance(self.recovery_codes, Unset):
            recovery_codes = self.recovery_codes

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "enabled": enabled,
                "passkeys": passkeys,
                "unusedRecoveryCodes": unused_recovery_codes,
            }
        )
        if recovery_codes is not UNSET:
            field_dict["recoveryCodes"] = recovery_codes

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        enabled = d.pop("enabled")

        passkeys = d.pop("passkeys")

        unused_recovery_codes = d.pop("unusedRecoveryCodes")

        recovery_codes = cast(list[str], d.pop("recoveryCodes", UNSET))

        second_step_out = cls(
            enabled=enabled,
            passkeys=passkeys,
            unused_recovery_codes=unused_recovery_codes,
            recovery_codes=recovery_codes,
        )

        second_step_out.additional_properties = d
        return second_step_out

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
