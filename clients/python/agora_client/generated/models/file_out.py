from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="FileOut")


@_attrs_define
class FileOut:
    """Read from a ``StoredFile`` row.

    Attributes:
        created_at (datetime.datetime):
        id (UUID):
        job_id (None | UUID):
        mime_type (None | str): Sniffed from the content, never the client's word.
        name (str): The uploaded (or fetched) file's name, made safe.
        origin (str): upload, or output (a file a job's agent returned).
        sha256 (None | str):
        size (int | None):
        source_url (None | str): Where an output file was fetched from.
        state (str): stored, or why an agent's output file is not: too_large, refused (by policy), unreachable.
    """

    created_at: datetime.datetime
    id: UUID
    job_id: None | UUID
    mime_type: None | str
    name: str
    origin: str
    sha256: None | str
    size: int | None
    source_url: None | str
    state: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at.isoformat()

        id = str(self.id)

        job_id: None | str
        if isinstance(self.job_id, UUID):
            job_id = str(self.job_id)
        else:
            job_id = self.job_id

        mime_type: None | str
        mime_type = self.mime_type

        name = self.name

        origin = self.origin

        sha256: None | str
        sha256 = self.sha256

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
                "jobId": job_id,
                "mimeType": mime_type,
                "name": name,
                "origin": origin,
                "sha256": sha256,
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

        def _parse_job_id(data: object) -> None | UUID:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                job_id_type_0 = UUID(data)

                return job_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | UUID, data)

        job_id = _parse_job_id(d.pop("jobId"))

        def _parse_mime_type(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        mime_type = _parse_mime_type(d.pop("mimeType"))

        name = d.pop("name")

        origin = d.pop("origin")

        def _parse_sha256(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        sha256 = _parse_sha256(d.pop("sha256"))

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

        file_out = cls(
            created_at=created_at,
            id=id,
            job_id=job_id,
            mime_type=mime_type,
            name=name,
            origin=origin,
            sha256=sha256,
            size=size,
            source_url=source_url,
            state=state,
        )

        file_out.additional_properties = d
        return file_out

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
