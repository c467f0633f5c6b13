from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="ExampleOutputIn")


@_attrs_define
class ExampleOutputIn:
    """
    Attributes:
        mime_type (str):
        name (str):
        url (str):
    """

    mime_type: str
    name: str
    url: str

    def to_dict(self) -> dict[str, Any]:
        mime_type = self.mime_type

        name = self.name

        url = self.url

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "mimeType": mime_type,
                "name": name,
                "url": url,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        mime_type = d.pop("mimeType")

        name = d.pop("name")

        url = d.pop("url")

        example_output_in = cls(
            mime_type=mime_type,
            name=name,
            url=url,
        )

        return example_output_in
