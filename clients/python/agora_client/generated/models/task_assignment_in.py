from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="TaskAssignmentIn")


@_attrs_define
class TaskAssignmentIn:
    """
    Attributes:
        task_id (str):
    """

    task_id: str

    def to_dict(self) -> dict[str, Any]:
        task_id = self.task_id

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "taskId": task_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        task_id = d.pop("taskId")

        task_assignment_in = cls(
            task_id=task_id,
        )

        return task_assignment_in
