from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="WorkspaceSwitchIn")


@_attrs_define
class WorkspaceSwitchIn:
    """
    Attributes:
        workspace_id (str):
    """

    workspace_id: str

    def to_dict(self) -> dict[str, Any]:
        workspace_id = self.workspace_id

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "workspaceId": workspace_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        workspace_id = d.pop("workspaceId")

        workspace_switch_in = cls(
            workspace_id=workspace_id,
        )

        return workspace_switch_in
