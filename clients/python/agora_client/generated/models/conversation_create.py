from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="ConversationCreate")


@_attrs_define
class ConversationCreate:
    """
    Attributes:
        title (str):
        description (str | Unset):  Default: ''.
    """

    title: str
    description: str | Unset = ""

    def to_dict(self) -> dict[str, Any]:
        title = self.title

        description = self.description

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "title": title,
            }
        )
        if description is not UNSET:
            field_dict["description"] = description

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        title = d.pop("title")

        description = d.pop("description", UNSET)

        conversation_create = cls(
            title=title,
            description=description,
        )

        return conversation_create
