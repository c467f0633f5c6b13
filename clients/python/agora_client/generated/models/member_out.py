from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="MemberOut")


@_attrs_define
class MemberOut:
    """
    Attributes:
        email (str):
        joined_at (datetime.datetime):
        name (str):
        role (str):
        user_id (UUID):
    """

    email: str
    joined_at: datetime.datetime
    name: str
    role: str
    user_id: UUID
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        email = self.email

        joined_at = self.joined_at.isoformat()

        name = self.name

        role = self.role

        user_id = str(self.user_id)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "email": email,
                "joinedAt": joined_at,
                "name": name,
                "role": role,
                "userId": user_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        email = d.pop("email")

        joined_at = datetime.datetime.fromisoformat(d.pop("joinedAt"))

        name = d.pop("name")

        role = d.pop("role")

        user_id = UUID(d.pop("userId"))

        member_out = cls(
            email=email,
            joined_at=joined_at,
            name=name,
            role=role,
            user_id=user_id,
        )

        member_out.additional_properties = d
        return member_out

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
