from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.role_in_role import RoleInRole, check_role_in_role

T = TypeVar("T", bound="RoleIn")


@_attrs_define
class RoleIn:
    """
    Attributes:
        role (RoleInRole):
    """

    role: RoleInRole

    def to_dict(self) -> dict[str, Any]:
        role: str = self.role

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "role": role,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        role = check_role_in_role(d.pop("role"))

        role_in = cls(
            role=role,
        )

        return role_in
