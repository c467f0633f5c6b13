from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="AdminJobOut")


@_attrs_define
class AdminJobOut:
    """
    Attributes:
        agent_id (UUID):
        created_at (datetime.datetime):
        id (UUID):
        name (str):
        price (float):
        status (str):
        workspace_id (UUID):
    """

    agent_id: UUID
    created_at: datetime.datetime
    id: UUID
    name: str
    price: float
    status: str
    workspace_id: UUID
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        agent_id = str(self.agent_id)

        created_at = self.created_at.isoformat()

        id = str(self.id)

        name = self.name

        price = self.price

        status = self.status

        workspace_id = str(self.workspace_id)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "agentId": agent_id,
                "createdAt": created_at,
                "id": id,
                "name": name,
                "price": price,
                "status": status,
                "workspaceId": workspace_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        agent_id = UUID(d.pop("agentId"))

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        id = UUID(d.pop("id"))

        name = d.pop("name")

        price = d.pop("price")

        status = d.pop("status")

        workspace_id = UUID(d.pop("workspaceId"))

        admin_job_out = cls(
            agent_id=agent_id,
            created_at=created_at,
            id=id,
            name=name,
            price=price,
            status=status,
            workspace_id=workspace_id,
        )

        admin_job_out.additional_properties = d
        return admin_job_out

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
