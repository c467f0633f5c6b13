from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.admin_user_out import AdminUserOut


T = TypeVar("T", bound="AdminMemberOut")


@_attrs_define
class AdminMemberOut:
    """
    Attributes:
        joined_at (datetime.datetime):
        role (str):
        user (AdminUserOut):
    """

    joined_at: datetime.datetime
    role: str
    user: AdminUserOut
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        joined_at = self.joined_at.isoformat()

        role = self.role

        user = self.user.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "joinedAt": joined_at,
                "role": role,
                "user": user,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.admin_user_out import AdminUserOut

        d = dict(src_dict)
        joined_at = datetime.datetime.fromisoformat(d.pop("joinedAt"))

        role = d.pop("role")

        user = AdminUserOut.from_dict(d.pop("user"))

        admin_member_out = cls(
            joined_at=joined_at,
            role=role,
            user=user,
        )

        admin_member_out.additional_properties = d
        return admin_member_out

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
