from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="OrganizationOut")


@_attrs_define
class OrganizationOut:
    """
    Attributes:
        created_at (datetime.datetime):
        id (UUID):
        name (str):
        role (str):
        slug (str):
        workspace_id (UUID):
    """

    created_at: datetime.datetime
    id: UUID
    name: str
    role: str
    slug: str
    workspace_id: UUID
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at.isoformat()

        id = str(self.id)

        name = self.name

        role = self.role

        slug = self.slug

        workspace_id = str(self.workspace_id)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "createdAt": created_at,
                "id": id,
                "name": name,
                "role": role,
                "slug": slug,
                "workspaceId": workspace_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        id = UUID(d.pop("id"))

        name = d.pop("name")

        role = d.pop("role")

        slug = d.pop("slug")

        workspace_id = UUID(d.pop("workspaceId"))

        organization_out = cls(
            created_at=created_at,
            id=id,
            name=name,
            role=role,
            slug=slug,
            workspace_id=workspace_id,
        )

        organization_out.additional_properties = d
        return organization_out

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
