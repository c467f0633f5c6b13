from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="ConversationsMessageOut")


@_attrs_define
class ConversationsMessageOut:
    """Read from a ``Message`` row.

    Attributes:
        author_id (None | UUID):
        content (str):
        conversation_id (UUID):
        created_at (datetime.datetime):
        id (UUID):
        role (str):
    """

    author_id: None | UUID
    content: str
    conversation_id: UUID
    created_at: datetime.datetime
    id: UUID
    role: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        author_id: None | str
        if isinstance(self.author_id, UUID):
            author_id = str(self.author_id)
        else:
            author_id = self.author_id

        content = self.content

        conversation_id = str(self.conversation_id)

        created_at = self.created_at.isoformat()

        id = str(self.id)

        role = self.role

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "authorId": author_id,
                "content": content,
                "conversationId": conversation_id,
                "createdAt": created_at,
                "id": id,
                "role": role,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_author_id(data: object) -> None | UUID:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                author_id_type_0 = UUID(data)

                return author_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | UUID, data)

        author_id = _parse_author_id(d.pop("authorId"))

        content = d.pop("content")

        conversation_id = UUID(d.pop("conversationId"))

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        id = UUID(d.pop("id"))

        role = d.pop("role")

        conversations_message_out = cls(
            author_id=author_id,
            content=content,
            conversation_id=conversation_id,
            created_at=created_at,
            id=id,
            role=role,
        )

        conversations_message_out.additional_properties = d
        return conversations_message_out

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
