from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.work_item_kind import WorkItemKind, check_work_item_kind

T = TypeVar("T", bound="WorkItem")


@_attrs_define
class WorkItem:
    """A task or a job (interface §2.6): ``credits`` is its net spend in display units.
    Read from a ``history.repository.Row`` (tasks carry their jobs' summed spend).

        Attributes:
            created_at (datetime.datetime):
            credits_ (float):
            id (UUID):
            kind (WorkItemKind):
            project_id (None | UUID):
            status (str):
            title (str):
            updated_at (datetime.datetime):
    """

    created_at: datetime.datetime
    credits_: float
    id: UUID
    kind: WorkItemKind
    project_id: None | UUID
    status: str
    title: str
    updated_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at.isoformat()

        credits_ = self.credits_

        id = str(self.id)

        kind: str = self.kind

        project_id: None | str
        if isinstance(self.project_id, UUID):
            project_id = str(self.project_id)
        else:
            project_id = self.project_id

        status = self.status

        title = self.title

        updated_at = self.updated_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "createdAt": created_at,
                "credits": credits_,
                "id": id,
                "kind": kind,
                "projectId": project_id,
                "status": status,
                "title": title,
                "updatedAt": updated_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        credits_ = d.pop("credits")

        id = UUID(d.pop("id"))

        kind = check_work_item_kind(d.pop("kind"))

        def _parse_project_id(data: object) -> None | UUID:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                project_id_type_0 = UUID(data)

                return project_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | UUID, data)

        project_id = _parse_project_id(d.pop("projectId"))

        status = d.pop("status")

        title = d.pop("title")

        updated_at = datetime.datetime.fromisoformat(d.pop("updatedAt"))

        work_item = cls(
            created_at=created_at,
            credits_=credits_,
            id=id,
            kind=kind,
            project_id=project_id,
            status=status,
            title=title,
            updated_at=updated_at,
        )

        work_item.additional_properties = d
        return work_item

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
