from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="OccurrencesOut")


@_attrs_define
class OccurrencesOut:
    """
    Attributes:
        local (list[str]): The same times in the schedule's time zone (ISO 8601).
        occurrences (list[datetime.datetime]):
        timezone (str):
    """

    local: list[str]
    occurrences: list[datetime.datetime]
    timezone: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        local = self.local

        occurrences = []
        for occurrences_item_data in self.occurrences:
            occurrences_item = occurrences_item_data.isoformat()
            occurrences.append(occurrences_item)

        timezone = self.timezone

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "local": local,
                "occurrences": occurrences,
                "timezone": timezone,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        local = cast(list[str], d.pop("local"))

        occurrences = []
        _occurrences = d.pop("occurrences")
        for occurrences_item_data in _occurrences:
            occurrences_item = datetime.datetime.fromisoformat(occurrences_item_data)

            occurrences.append(occurrences_item)

        timezone = d.pop("timezone")

        occurrences_out = cls(
            local=local,
            occurrences=occurrences,
            timezone=timezone,
        )

        occurrences_out.additional_properties = d
        return occurrences_out

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
