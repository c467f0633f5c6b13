from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="ErrorSeenOut")


@_attrs_define
class ErrorSeenOut:
    """
    Attributes:
        agent_job_status (None | str):
        at (datetime.datetime):
        error (str):
        job_id (UUID):
    """

    agent_job_status: None | str
    at: datetime.datetime
    error: str
    job_id: UUID
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        agent_job_status: None | str
        agent_job_status = self.agent_job_status

        at = self.at.isoformat()

        error = self.error

        job_id = str(self.job_id)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "agentJobStatus": agent_job_status,
                "at": at,
                "error": error,
                "jobId": job_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_agent_job_status(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        agent_job_status = _parse_agent_job_status(d.pop("agentJobStatus"))

        at = datetime.datetime.fromisoformat(d.pop("at"))

        error = d.pop("error")

        job_id = UUID(d.pop("jobId"))

        error_seen_out = cls(
            agent_job_status=agent_job_status,
            at=at,
            error=error,
            job_id=job_id,
        )

        error_seen_out.additional_properties = d
        return error_seen_out

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
