from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="InvitationOut")


@_attrs_define
class InvitationOut:
    """
    Attributes:
        created_at (datetime.datetime):
        email (None | str):
        expires_at (datetime.datetime):
        id (UUID):
        max_uses (int):
        organization_id (UUID):
        revoked_at (datetime.datetime | None):
        role (str):
        uses (int):
    """

    created_at: datetime.datetime
    email: None | str
    expires_at: datetime.datetime
    id: UUID
    max_uses: int
    organization_id: UUID
    revoked_at: datetime.datetime | None
    role: str
    uses: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at.isoformat()

        email: None | str
        email = self.email

        expires_at = self.expires_at.isoformat()

        id = str(self.id)

        max_uses = self.max_uses

        organization_id = str(self.organization_id)

        revoked_at: None | str
        if isinstance(self.revoked_at, datetime.datetime):
            revoked_at = self.revoked_at.isoformat()
        else:
            revoked_at = self.revoked_at

        role = self.role

        uses = self.uses

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "createdAt": created_at,
                "email": email,
                "expiresAt": expires_at,
                "id": id,
                "maxUses": max_uses,
                "organizationId": organization_id,
                "revokedAt": revoked_at,
                "role": role,
                "uses": uses,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        def _parse_email(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        email = _parse_email(d.pop("email"))

        expires_at = datetime.datetime.fromisoformat(d.pop("expiresAt"))

        id = UUID(d.pop("id"))

        max_uses = d.pop("maxUses")

        organization_id = UUID(d.pop("organizationId"))

        def _parse_revoked_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                revoked_at_type_0 = datetime.datetime.fromisoformat(data)

                return revoked_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        revoked_at = _parse_revoked_at(d.pop("revokedAt"))

        role = d.pop("role")

        uses = d.pop("uses")

        invitation_out = cls(
            created_at=created_at,
            email=email,
            expires_at=expires_at,
            id=id,
            max_uses=max_uses,
            organization_id=organization_id,
            revoked_at=revoked_at,
            role=role,
            uses=uses,
        )

        invitation_out.additional_properties = d
        return invitation_out

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
