from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="ConversationOut")


@_attrs_define
class ConversationOut:
    """Read from a ``Conversation`` row.

    Attributes:
        archived (bool):
        archived_at (datetime.datetime | None):
        created_at (datetime.datetime):
        description (str):
        id (UUID):
        title (str):
        updated_at (datetime.datetime):
        user_id (UUID):
        workspace_id (UUID):
    """

    archived: bool
    archived_at: datetime.datetime | None
    created_at: datetime.datetime
    description: str
    id: UUID
    title: str
    updated_at: datetime.datetime
    user_id: UUID
    workspace_id: UUID
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        archived = self.archived

        archived_at: None | str
        if isinstance(self.archived_at, datetime.datetime):
            archived_at = self.archived_at.isoformat()
        else:
            archived_at = self.archived_at

        created_at = self.created_at.isoformat()

        description = self.description

        id = str(self.id)

        title = self.title

        updated_at = self.updated_at.isoformat()

        user_id = str(self.user_id)

        workspace_id = str(self.workspace_id)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "archived": archived,
                "archivedAt": archived_at,
                "createdAt": created_at,
                "description": description,
                "id": id,
                "title": title,
                "updatedAt": updated_at,
                "userId": user_id,
                "workspaceId": workspace_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        archived = d.pop("archived")

        def _parse_archived_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                archived_at_type_0 = datetime.datetime.fromisoformat(data)

                return archived_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        archived_at = _parse_archived_at(d.pop("archivedAt"))

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        description = d.pop("description")

        id = UUID(d.pop("id"))

        title = d.pop("title")

        updated_at = datetime.datetime.fromisoformat(d.pop("updatedAt"))

        user_id = UUID(d.pop("userId"))

        workspace_id = UUID(d.pop("workspaceId"))

        conversation_out = cls(
            archived=archived,
            archived_at=archived_at,
            created_at=created_at,
            description=description,
            id=id,
            title=title,
            updated_at=updated_at,
            user_id=user_id,
            workspace_id=workspace_id,
        )

        conversation_out.additional_properties = d
        return conversation_out

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
