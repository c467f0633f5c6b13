from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="AssigneeIn")


@_attrs_define
class AssigneeIn:
    """
    Attributes:
        assignee_id (str): A member's user id or a coworker's id
    """

    assignee_id: str

    def to_dict(self) -> dict[str, Any]:
        assignee_id = self.assignee_id

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "assigneeId": assignee_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        assignee_id = d.pop("assigneeId")

        assignee_in = cls(
            assignee_id=assignee_id,
        )

        return assignee_in
