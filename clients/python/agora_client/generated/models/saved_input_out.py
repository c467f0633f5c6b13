from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.saved_input_out_inputdata import SavedInputOutInputdata


T = TypeVar("T", bound="SavedInputOut")


@_attrs_define
class SavedInputOut:
    """A saved input (read from a ``SavedInput`` row).

    Attributes:
        agent_id (UUID):
        agent_version (int | None): The pinned version; null: follows the latest compatible version.
        created_at (datetime.datetime):
        id (UUID):
        input_data (SavedInputOutInputdata):
        name (str):
        updated_at (datetime.datetime):
    """

    agent_id: UUID
    agent_version: int | None
    created_at: datetime.datetime
    id: UUID
    input_data: SavedInputOutInputdata
    name: str
    updated_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        agent_id = str(self.agent_id)

        agent_version: int | None
        agent_version = self.agent_version

        created_at = self.created_at.isoformat()

        id = str(self.id)

        input_data = self.input_data.to_dict()

        name = self.name

        updated_at = self.updated_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "agentId": agent_id,
                "agentVersion": agent_version,
                "createdAt": created_at,
                "id": id,
                "inputData": input_data,
                "name": name,
                "updatedAt": updated_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.saved_input_out_inputdata import SavedInputOutInputdata

        d = dict(src_dict)
        agent_id = UUID(d.pop("agentId"))

        def _parse_agent_version(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        agent_version = _parse_agent_version(d.pop("agentVersion"))

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        id = UUID(d.pop("id"))

        input_data = SavedInputOutInputdata.from_dict(d.pop("inputData"))

        name = d.pop("name")

        updated_at = datetime.datetime.fromisoformat(d.pop("updatedAt"))

        saved_input_out = cls(
            agent_id=agent_id,
            agent_version=agent_version,
            created_at=created_at,
            id=id,
            input_data=input_data,
            name=name,
            updated_at=updated_at,
        )

        saved_input_out.additional_properties = d
        return saved_input_out

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
