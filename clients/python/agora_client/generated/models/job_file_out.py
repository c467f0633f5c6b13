from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="JobFileOut")


@_attrs_define
class JobFileOut:
    """Read from ``jobs.attachments.JobFile``.

    Attributes:
        created_at (datetime.datetime):
        file_url (str):
        id (UUID):
        job_id (UUID):
        mime_type (None | str):
        name (str):
        size (int | None): Null until the file is stored by Agora.
        source (str): Where it was found: input or result.
        source_url (None | str): The URL as the input or result gave it.
        status (str): AVAILABLE (found, not fetched), STORED (kept by Agora: fileUrl is Agora's), TOO_LARGE, REFUSED (by
            policy), UNREACHABLE.
        updated_at (datetime.datetime):
        sha256 (None | str | Unset): Of a stored file's bytes.
    """

    created_at: datetime.datetime
    file_url: str
    id: UUID
    job_id: UUID
    mime_type: None | str
    name: str
    size: int | None
    source: str
    source_url: None | str
    status: str
    updated_at: datetime.datetime
    sha256: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at.isoformat()

        file_url = self.file_url

        id = str(self.id)

        job_id = str(self.job_id)

        mime_type: None | str
        mime_type = self.mime_type

        name = self.name

        size: int | None
        size = self.size

        source = self.source

        source_url: None | str
        source_url = self.source_url

        status = self.status

        updated_at = self.updated_at.isoformat()

        sha256: None | str | Unset
        if isinstance(self.sha256, Unset):
            sha256 = UNSET
        else:
            sha256 = self.sha256

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "createdAt": created_at,
                "fileUrl": file_url,
                "id": id,
                "jobId": job_id,
                "mimeType": mime_type,
                "name": name,
                "size": size,
                "source": source,
                "sourceUrl": source_url,
                "status": status,
                "updatedAt": updated_at,
            }
        )
        if sha256 is not UNSET:
            field_dict["sha256"] = sha256

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        file_url = d.pop("fileUrl")

        id = UUID(d.pop("id"))

        job_id = UUID(d.pop("jobId"))

        def _parse_mime_type(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        mime_type = _parse_mime_type(d.pop("mimeType"))

        name = d.pop("name")

        def _parse_size(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        size = _parse_size(d.pop("size"))

        source = d.pop("source")

        def _parse_source_url(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        source_url = _parse_source_url(d.pop("sourceUrl"))

        status = d.pop("status")

        updated_at = datetime.datetime.fromisoformat(d.pop("updatedAt"))

        def _parse_sha256(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        sha256 = _parse_sha256(d.pop("sha256", UNSET))

        job_file_out = cls(
            created_at=created_at,
            file_url=file_url,
            id=id,
            job_id=job_id,
            mime_type=mime_type,
            name=name,
            size=size,
            source=source,
            source_url=source_url,
            status=status,
            updated_at=updated_at,
            sha256=sha256,
        )

        job_file_out.additional_properties = d
        return job_file_out

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
