from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="AdminListedJobOut")


@_attrs_define
class AdminListedJobOut:
    """
    Attributes:
        agent_id (UUID):
        agent_name (str):
        created_at (datetime.datetime):
        dispatch_state (str):
        id (UUID):
        name (str):
        price (float):
        status (str):
        user_id (UUID):
        workspace_id (UUID):
    """

    agent_id: UUID
    agent_name: str
    created_at: datetime.datetime
    dispatch_state: str
    id: UUID
    name: str
    price: float
    status: str
    user_id: UUID
    workspace_id: UUID
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        agent_id = str(self.agent_id)

        agent_name = self.agent_name

        created_at = self.created_at.isoformat()

        dispatch_state = self.dispatch_state

        id = str(self.id)

        name = self.name

        price = self.price

        status = self.status

        user_id = str(self.user_id)

        workspace_id = str(self.workspace_id)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "agentId": agent_id,
                "agentName": agent_name,
                "createdAt": created_at,
                "dispatchState": dispatch_state,
                "id": id,
                "name": name,
                "price": price,
                "status": status,
                "userId": user_id,
                "workspaceId": workspace_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        agent_id = UUID(d.pop("agentId"))

        agent_name = d.pop("agentName")

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        dispatch_state = d.pop("dispatchState")

        id = UUID(d.pop("id"))

        name = d.pop("name")

        price = d.pop("price")

        status = d.pop("status")

        user_id = UUID(d.pop("userId"))

        workspace_id = UUID(d.pop("workspaceId"))

        admin_listed_job_out = cls(
            agent_id=agent_id,
            agent_name=agent_name,
            created_at=created_at,
            dispatch_state=dispatch_state,
            id=id,
            name=name,
            price=price,
            status=status,
            user_id=user_id,
            workspace_id=workspace_id,
        )

        admin_listed_job_out.additional_properties = d
        return admin_listed_job_out

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
