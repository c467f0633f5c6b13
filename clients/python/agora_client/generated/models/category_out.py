from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="CategoryOut")


@_attrs_define
class CategoryOut:
    """Read from a ``Category`` row, or ``agents.service.CountedCategory`` (with its count).

    Attributes:
        description (str):
        id (UUID):
        name (str):
        slug (str):
        agent_count (int | Unset): Available (verified, shown) agents in it. Default: 0.
    """

    description: str
    id: UUID
    name: str
    slug: str
    agent_count: int | Unset = 0
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        description = self.description

        id = str(self.id)

        name = self.name

        slug = self.slug

        agent_count = self.agent_count

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "description": description,
                "id": id,
                "name": name,
                "slug": slug,
            }
        )
        if agent_count is not UNSET:
            field_dict["agentCount"] = agent_count

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        description = d.pop("description")

        id = UUID(d.pop("id"))

        name = d.pop("name")

        slug = d.pop("slug")

        agent_count = d.pop("agentCount", UNSET)

        category_out = cls(
            description=description,
            id=id,
            name=name,
            slug=slug,
            agent_count=agent_count,
        )

        category_out.additional_properties = d
        return category_out

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
