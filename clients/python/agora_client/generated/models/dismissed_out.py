from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="DismissedOut")


@_attrs_define
class DismissedOut:
    """
    Attributes:
        dismissed_at (datetime.datetime):
        dismissed_reason (str):
        entry_key (str):
        id (UUID):
    """

    dismissed_at: datetime.datetime
    dismissed_reason: str
    entry_key: str
    id: UUID
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        dismissed_at = self.dismissed_at.isoformat()

        dismissed_reason = self.dismissed_reason

        entry_key = self.entry_key

        id = str(self.id)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "dismissedAt": dismissed_at,
                "dismissedReason": dismissed_reason,
                "entryKey": entry_key,
                "id": id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        dismissed_at = datetime.datetime.fromisoformat(d.pop("dismissedAt"))

        dismissed_reason = d.pop("dismissedReason")

        entry_key = d.pop("entryKey")

        id = UUID(d.pop("id"))

        dismissed_out = cls(
            dismissed_at=dismissed_at,
            dismissed_reason=dismissed_reason,
            entry_key=entry_key,
            id=id,
        )

        dismissed_out.additional_properties = d
        return dismissed_out

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
