from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="ReplyCreate")


@_attrs_define
class ReplyCreate:
    """
    Attributes:
        reply (str):
    """

    reply: str

    def to_dict(self) -> dict[str, Any]:
        reply = self.reply

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "reply": reply,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        reply = d.pop("reply")

        reply_create = cls(
            reply=reply,
        )

        return reply_create
