from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.message_create_role import MessageCreateRole, check_message_create_role

T = TypeVar("T", bound="MessageCreate")


@_attrs_define
class MessageCreate:
    """
    Attributes:
        content (str):
        role (MessageCreateRole):
    """

    content: str
    role: MessageCreateRole

    def to_dict(self) -> dict[str, Any]:
        content = self.content

        role: str = self.role

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "content": content,
                "role": role,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        content = d.pop("content")

        role = check_message_create_role(d.pop("role"))

        message_create = cls(
            content=content,
            role=role,
        )

        return message_create
