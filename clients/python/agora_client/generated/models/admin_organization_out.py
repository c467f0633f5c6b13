from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="AdminOrganizationOut")


@_attrs_define
class AdminOrganizationOut:
    """
    Attributes:
        created_at (datetime.datetime):
        id (UUID):
        name (str):
        slug (str):
        suspended_at (datetime.datetime | None):
        suspension_reason (None | str):
    """

    created_at: datetime.datetime
    id: UUID
    name: str
    slug: str
    suspended_at: datetime.datetime | None
    suspension_reason: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at.isoformat()

        id = str(self.id)

        name = self.name

        slug = self.slug

        suspended_at: None | str
        if isinstance(self.suspended_at, datetime.datetime):
            suspended_at = self.suspended_at.isoformat()
        else:
            suspended_at = self.suspended_at

        suspension_reason: None | str
        suspension_reason = self.suspension_reason

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "createdAt": created_at,
                "id": id,
                "name": name,
                "slug": slug,
                "suspendedAt": suspended_at,
                "suspensionReason": suspension_reason,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        id = UUID(d.pop("id"))

        name = d.pop("name")

        slug = d.pop("slug")

        def _parse_suspended_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                suspended_at_type_0 = datetime.datetime.fromisoformat(data)

                return suspended_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        suspended_at = _parse_suspended_at(d.pop("suspendedAt"))

        def _parse_suspension_reason(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        suspension_reason = _parse_suspension_reason(d.pop("suspensionReason"))

        admin_organization_out = cls(
            created_at=created_at,
            id=id,
            name=name,
            slug=slug,
            suspended_at=suspended_at,
            suspension_reason=suspension_reason,
        )

        admin_organization_out.additional_properties = d
        return admin_organization_out

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
