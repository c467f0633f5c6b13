from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="ScheduleRunOut")


@_attrs_define
class ScheduleRunOut:
    """
    Attributes:
        created_at (datetime.datetime):
        credits_ (float):
        id (UUID):
        job_id (None | UUID):
        missed_count (int):
        occurrence_at (datetime.datetime):
        reason (None | str):
        schedule_id (UUID):
        status (str): created, completed, failed, cancelled, skipped, missed or error
        task_id (None | UUID):
    """

    created_at: datetime.datetime
    credits_: float
    id: UUID
    job_id: None | UUID
    missed_count: int
    occurrence_at: datetime.datetime
    reason: None | str
    schedule_id: UUID
    status: str
    task_id: None | UUID
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at.isoformat()

        credits_ = self.credits_

        id = str(self.id)

        job_id: None | str
        if isinstance(self.job_id, UUID):
            job_id = str(self.job_id)
        else:
            job_id = self.job_id

        missed_count = self.missed_count

        occurrence_at = self.occurrence_at.isoformat()

        reason: None | str
        reason = self.reason

        schedule_id = str(self.schedule_id)

        status = self.status

        task_id: None | str
        if isinstance(self.task_id, UUID):
            task_id = str(self.task_id)
        else:
            task_id = self.task_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "createdAt": created_at,
                "credits": credits_,
                "id": id,
                "jobId": job_id,
                "missedCount": missed_count,
                "occurrenceAt": occurrence_at,
                "reason": reason,
                "scheduleId": schedule_id,
                "status": status,
                "taskId": task_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        credits_ = d.pop("credits")

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

        missed_count = d.pop("missedCount")

        occurrence_at = datetime.datetime.fromisoformat(d.pop("occurrenceAt"))

        def _parse_reason(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        reason = _parse_reason(d.pop("reason"))

        schedule_id = UUID(d.pop("scheduleId"))

        status = d.pop("status")

        def _parse_task_id(data: object) -> None | UUID:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                task_id_type_0 = UUID(data)

                return task_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | UUID, data)

        task_id = _parse_task_id(d.pop("taskId"))

        schedule_run_out = cls(
            created_at=created_at,
            credits_=credits_,
            id=id,
            job_id=job_id,
            missed_count=missed_count,
            occurrence_at=occurrence_at,
            reason=reason,
            schedule_id=schedule_id,
            status=status,
            task_id=task_id,
        )

        schedule_run_out.additional_properties = d
        return schedule_run_out

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
