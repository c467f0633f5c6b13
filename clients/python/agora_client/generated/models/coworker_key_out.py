from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="CoworkerKeyOut")


@_attrs_define
class CoworkerKeyOut:
    """Read from ``coworkers.service.IssuedKey``.

    Attributes:
        coworker_id (UUID):
        expires_at (datetime.datetime | None):
        id (UUID):
        name (str):
        token (str): The key itself, shown once.
        workspace_id (UUID):
    """

    coworker_id: UUID
    expires_at: datetime.datetime | None
    id: UUID
    name: str
    token: str
    workspace_id: UUID
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        coworker_id = str(self.coworker_id)

        expires_at: None | str
        if isinstance(self.expires_at, datetime.datetime):
            expires_at = self.expires_at.isoformat()
        else:
            expires_at = self.expires_at

        id = str(self.id)

        name = self.name

        token = self.token

        workspace_id = str(self.workspace_id)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "coworkerId": coworker_id,
                "expiresAt": expires_at,
                "id": id,
                "name": name,
                "token": token,
                "workspaceId": workspace_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        coworker_id = UUID(d.pop("coworkerId"))

        def _parse_expires_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                expires_at_type_0 = datetime.datetime.fromisoformat(data)

                return expires_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        expires_at = _parse_expires_at(d.pop("expiresAt"))

        id = UUID(d.pop("id"))

        name = d.pop("name")

        token = d.pop("token")

        workspace_id = UUID(d.pop("workspaceId"))

        coworker_key_out = cls(
            coworker_id=coworker_id,
            expires_at=expires_at,
            id=id,
            name=name,
            token=token,
            workspace_id=workspace_id,
        )

        coworker_key_out.additional_properties = d
        return coworker_key_out

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
