from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.quarantined_out_entry import QuarantinedOutEntry


T = TypeVar("T", bound="QuarantinedOut")


@_attrs_define
class QuarantinedOut:
    """
    Attributes:
        created_at (datetime.datetime):
        entry (QuarantinedOutEntry):
        entry_key (str):
        id (UUID):
        reason (str):
        source_url (str):
        updated_at (datetime.datetime):
    """

    created_at: datetime.datetime
    entry: QuarantinedOutEntry
    entry_key: str
    id: UUID
    reason: str
    source_url: str
    updated_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at.isoformat()

        entry = self.entry.to_dict()

        entry_key = self.entry_key

        id = str(self.id)

        reason = self.reason

        source_url = self.source_url

        updated_at = self.updated_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "createdAt": created_at,
                "entry": entry,
                "entryKey": entry_key,
                "id": id,
                "reason": reason,
                "sourceUrl": source_url,
                "updatedAt": updated_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.quarantined_out_entry import QuarantinedOutEntry

        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        entry = QuarantinedOutEntry.from_dict(d.pop("entry"))

        entry_key = d.pop("entryKey")

        id = UUID(d.pop("id"))

        reason = d.pop("reason")

        source_url = d.pop("sourceUrl")

        updated_at = datetime.datetime.fromisoformat(d.pop("updatedAt"))

        quarantined_out = cls(
            created_at=created_at,
            entry=entry,
            entry_key=entry_key,
            id=id,
            reason=reason,
            source_url=source_url,
            updated_at=updated_at,
        )

        quarantined_out.additional_properties = d
        return quarantined_out

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
