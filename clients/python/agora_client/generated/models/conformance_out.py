from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="ConformanceOut")


@_attrs_define
class ConformanceOut:
    """The Conformant badge (docs/developer.md, "Certification"): the latest passing run's time
    and the suite's version.

        Attributes:
            passed_at (datetime.datetime):
            suite_version (str):
    """

    passed_at: datetime.datetime
    suite_version: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        passed_at = self.passed_at.isoformat()

        suite_version = self.suite_version

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "passedAt": passed_at,
                "suiteVersion": suite_version,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        passed_at = datetime.datetime.fromisoformat(d.pop("passedAt"))

        suite_version = d.pop("suiteVersion")

        conformance_out = cls(
            passed_at=passed_at,
            suite_version=suite_version,
        )

        conformance_out.additional_properties = d
        return conformance_out

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
