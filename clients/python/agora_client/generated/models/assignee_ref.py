from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.assignee_ref_type import AssigneeRefType, check_assignee_ref_type

T = TypeVar("T", bound="AssigneeRef")


@_attrs_define
class AssigneeRef:
    """Read from ``tasks.service.AssigneeView``: a member of the workspace (``type`` user, no
    slug) or a coworker (``type`` coworker, with its slug).

        Attributes:
            id (UUID):
            name (str):
            slug (None | str):
            type_ (AssigneeRefType):
    """

    id: UUID
    name: str
    slug: None | str
    type_: AssigneeRefType
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        name = self.name

        slug: None | str
        slug = self.slug

        type_: str = self.type_

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "name": name,
                "slug": slug,
                "type": type_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = UUID(d.pop("id"))

        name = d.pop("name")

        def _parse_slug(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        slug = _parse_slug(d.pop("slug"))

        type_ = check_assignee_ref_type(d.pop("type"))

        assignee_ref = cls(
            id=id,
            name=name,
            slug=slug,
            type_=type_,
        )

        assignee_ref.additional_properties = d
        return assignee_ref

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
