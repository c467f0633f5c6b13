from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="PublishedOut")


@_attrs_define
class PublishedOut:
    """What the catalogue shows: the submission with the admin's overrides applied.

    Attributes:
        description (str):
        image (None | str):
        is_shown (bool):
        name (str):
        overridden (list[str]):
        tags (list[str]):
    """

    description: str
    image: None | str
    is_shown: bool
    name: str
    overridden: list[str]
    tags: list[str]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        description = self.description

        image: None | str
        image = self.image

        is_shown = self.is_shown

        name = self.name

        overridden = self.overridden

        tags = self.tags

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "description": description,
                "image": image,
                "isShown": is_shown,
                "name": name,
                "overridden": overridden,
                "tags": tags,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        description = d.pop("description")

        def _parse_image(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        image = _parse_image(d.pop("image"))

        is_shown = d.pop("isShown")

        name = d.pop("name")

        overridden = cast(list[str], d.pop("overridden"))

        tags = cast(list[str], d.pop("tags"))

        published_out = cls(
            description=description,
            image=image,
            is_shown=is_shown,
            name=name,
            overridden=overridden,
            tags=tags,
        )

        published_out.additional_properties = d
        return published_out

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
