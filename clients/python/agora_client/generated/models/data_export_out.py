from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="DataExportOut")


@_attrs_define
class DataExportOut:
    """One data export (docs/accounts.md, "Your data"): pending → ready (mailed) → downloaded |
    expired | failed.

        Attributes:
            created_at (datetime.datetime):
            downloaded_at (datetime.datetime | None):
            expires_at (datetime.datetime | None):
            id (UUID):
            ready_at (datetime.datetime | None):
            size (int | None):
            state (str):
    """

    created_at: datetime.datetime
    downloaded_at: datetime.datetime | None
    expires_at: datetime.datetime | None
    id: UUID
    ready_at: datetime.datetime | None
    size: int | None
    state: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at.isoformat()

        downloaded_at: None | str
        if isinstance(self.downloaded_at, datetime.datetime):
            downloaded_at = self.downloaded_at.isoformat()
        else:
            downloaded_at = self.downloaded_at

        expires_at: None | str
        if isinstance(self.expires_at, datetime.datetime):
            expires_at = self.expires_at.isoformat()
        else:
            expires_at = self.expires_at

        id = str(self.id)

        ready_at: None | str
        if isinstance(self.ready_at, datetime.datetime):
            ready_at = self.ready_at.isoformat()
        else:
            ready_at = self.ready_at

        size: int | None
        size = self.size

        state = self.state

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "createdAt": created_at,
                "downloadedAt": downloaded_at,
                "expiresAt": expires_at,
                "id": id,
                "readyAt": ready_at,
                "size": size,
                "state": state,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        def _parse_downloaded_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                downloaded_at_type_0 = datetime.datetime.fromisoformat(data)

                return downloaded_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        downloaded_at = _parse_downloaded_at(d.pop("downloadedAt"))

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

        def _parse_ready_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                ready_at_type_0 = datetime.datetime.fromisoformat(data)

                return ready_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        ready_at = _parse_ready_at(d.pop("readyAt"))

        def _parse_size(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        size = _parse_size(d.pop("size"))

        state = d.pop("state")

        data_export_out = cls(
            created_at=created_at,
            downloaded_at=downloaded_at,
            expires_at=expires_at,
            id=id,
            ready_at=ready_at,
            size=size,
            state=state,
        )

        data_export_out.additional_properties = d
        return data_export_out

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
