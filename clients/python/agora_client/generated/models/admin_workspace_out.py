from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="AdminWorkspaceOut")


@_attrs_define
class AdminWorkspaceOut:
    """
    Attributes:
        balance (float):
        held (float):
        id (UUID):
        kind (str):
        name (str):
        organization_id (None | UUID):
    """

    balance: float
    held: float
    id: UUID
    kind: str
    name: str
    organization_id: None | UUID
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        balance = self.balance

        held = self.held

        id = str(self.id)

        kind = self.kind

        name = self.name

        organization_id: None | str
        if isinstance(self.organization_id, UUID):
            organization_id = str(self.organization_id)
        else:
            organization_id = self.organization_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "balance": balance,
                "held": held,
                "id": id,
                "kind": kind,
                "name": name,
                "organizationId": organization_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        balance = d.pop("balance")

        held = d.pop("held")

        id = UUID(d.pop("id"))

        kind = d.pop("kind")

        name = d.pop("name")

        def _parse_organization_id(data: object) -> None | UUID:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                organization_id_type_0 = UUID(data)

                return organization_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | UUID, data)

        organization_id = _parse_organization_id(d.pop("organizationId"))

        admin_workspace_out = cls(
            balance=balance,
            held=held,
            id=id,
            kind=kind,
            name=name,
            organization_id=organization_id,
        )

        admin_workspace_out.additional_properties = d
        return admin_workspace_out

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
