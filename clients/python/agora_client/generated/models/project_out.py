from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="ProjectOut")


@_attrs_define
class ProjectOut:
    """Read from a ``Project`` row.

    Attributes:
        created_at (datetime.datetime):
        description (str):
        id (UUID):
        name (str):
        updated_at (datetime.datetime):
        workspace_id (UUID):
    """

    created_at: datetime.datetime
    description: str
    id: UUID
    name: str
    updated_at: datetime.datetime
    workspace_id: UUID
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at.isoformat()

        description = self.description

        id = str(self.id)

        name = self.name

        updated_at = self.updated_at.isoformat()

        workspace_id = str(self.workspace_id)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "createdAt": created_at,
                "description": description,
                "id": id,
                "name": name,
                "updatedAt": updated_at,
                "workspaceId": workspace_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        description = d.pop("description")

        id = UUID(d.pop("id"))

        name = d.pop("name")

        updated_at = datetime.datetime.fromisoformat(d.pop("updatedAt"))

        workspace_id = UUID(d.pop("workspaceId"))

        project_out = cls(
            created_at=created_at,
            description=description,
            id=id,
            name=name,
            updated_at=updated_at,
            workspace_id=workspace_id,
        )

        project_out.additional_properties = d
        return project_out

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
