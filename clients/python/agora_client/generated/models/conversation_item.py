from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.conversation_item_kind import ConversationItemKind, check_conversation_item_kind

T = TypeVar("T", bound="ConversationItem")


@_attrs_define
class ConversationItem:
    """A conversation: no status, credits or projectId (the keys are absent, not null).

    Attributes:
        created_at (datetime.datetime):
        id (UUID):
        kind (ConversationItemKind):
        title (str):
        updated_at (datetime.datetime):
    """

    created_at: datetime.datetime
    id: UUID
    kind: ConversationItemKind
    title: str
    updated_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at.isoformat()

        id = str(self.id)

        kind: str = self.kind

        title = self.title

        updated_at = self.updated_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "createdAt": created_at,
                "id": id,
                "kind": kind,
                "title": title,
                "updatedAt": updated_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        id = UUID(d.pop("id"))

        kind = check_conversation_item_kind(d.pop("kind"))

        title = d.pop("title")

        updated_at = datetime.datetime.fromisoformat(d.pop("updatedAt"))

        conversation_item = cls(
            created_at=created_at,
            id=id,
            kind=kind,
            title=title,
            updated_at=updated_at,
        )

        conversation_item.additional_properties = d
        return conversation_item

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
