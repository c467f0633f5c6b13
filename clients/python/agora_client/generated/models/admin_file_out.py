from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="AdminFileOut")


@_attrs_define
class AdminFileOut:
    """
    Attributes:
        created_at (datetime.datetime):
        id (UUID):
        mime_type (None | str):
        name (str):
        origin (str):
        size (int | None):
        source_url (None | str): Fetched from (without its query string)
        state (str):
    """

    created_at: datetime.datetime
    id: UUID
    mime_type: None | str
    name: str
    origin: str
    size: int | None
    source_url: None | str
    state: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at.isoformat()

        id = str(self.id)

        mime_type: None | str
        mime_type = self.mime_type

        name = self.name

        origin = self.origin

        size: int | None
        size = self.size

        source_url: None | str
        source_url = self.source_url

        state = self.state

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "createdAt": created_at,
                "id": id,
                "mimeType": mime_type,
                "name": name,
                "origin": origin,
                "size": size,
                "sourceUrl": source_url,
                "state": state,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        id = UUID(d.pop("id"))

        def _parse_mime_type(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        mime_type = _parse_mime_type(d.pop("mimeType"))

        name = d.pop("name")

        origin = d.pop("origin")

        def _parse_size(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        size = _parse_size(d.pop("size"))

        def _parse_source_url(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        source_url = _parse_source_url(d.pop("sourceUrl"))

        state = d.pop("state")

        admin_file_out = cls(
            created_at=created_at,
            id=id,
            mime_type=mime_type,
            name=name,
            origin=origin,
            size=size,
            source_url=source_url,
            state=state,
        )

        admin_file_out.additional_properties = d
        return admin_file_out

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
