from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.job_status import JobStatus, check_job_status

if TYPE_CHECKING:
    from ..models.share_out import ShareOut


T = TypeVar("T", bound="SharedJobOut")


@_attrs_define
class SharedJobOut:
    """Read from ``jobs.service.ShownJob`` (with the agent's name and the share).

    Attributes:
        agent_id (UUID):
        agent_name (str):
        completed_at (datetime.datetime | None):
        created_at (datetime.datetime):
        id (UUID):
        input_ (str):
        name (str):
        result (None | str):
        share (ShareOut): Read from ``jobs.service.ShareView``.
        status (JobStatus):
        updated_at (datetime.datetime):
    """

    agent_id: UUID
    agent_name: str
    completed_at: datetime.datetime | None
    created_at: datetime.datetime
    id: UUID
    input_: str
    name: str
    result: None | str
    share: ShareOut
    status: JobStatus
    updated_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        agent_id = str(self.agent_id)

        agent_name = self.agent_name

        completed_at: None | str
        if isinstance(self.completed_at, datetime.datetime):
            completed_at = self.completed_at.isoformat()
        else:
            completed_at = self.completed_at

        created_at = self.created_at.isoformat()

        id = str(self.id)

        input_ = self.input_

        name = self.name

        result: None | str
        result = self.result

        share = self.share.to_dict()

        status: str = self.status

        updated_at = self.updated_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "agentId": agent_id,
                "agentName": agent_name,
                "completedAt": completed_at,
                "createdAt": created_at,
                "id": id,
                "input": input_,
                "name": name,
                "result": result,
                "share": share,
                "status": status,
                "updatedAt": updated_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.share_out import ShareOut

        d = dict(src_dict)
        agent_id = UUID(d.pop("agentId"))

        agent_name = d.pop("agentName")

        def _parse_completed_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                completed_at_type_0 = datetime.datetime.fromisoformat(data)

                return completed_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        completed_at = _parse_completed_at(d.pop("completedAt"))

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        id = UUID(d.pop("id"))

        input_ = d.pop("input")

        name = d.pop("name")

        def _parse_result(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        result = _parse_result(d.pop("result"))

        share = ShareOut.from_dict(d.pop("share"))

        status = check_job_status(d.pop("status"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updatedAt"))

        shared_job_out = cls(
            agent_id=agent_id,
            agent_name=agent_name,
            completed_at=completed_at,
            created_at=created_at,
            id=id,
            input_=input_,
            name=name,
            result=result,
            share=share,
            status=status,
            updated_at=updated_at,
        )

        shared_job_out.additional_properties = d
        return shared_job_out

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
