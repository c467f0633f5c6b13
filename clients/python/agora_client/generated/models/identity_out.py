from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="IdentityOut")


@_attrs_define
class IdentityOut:
    """A provider linked to the account (docs/accounts.md, "Identity providers").

    Attributes:
        created_at (datetime.datetime):
        email (None | str):
        email_verified (bool):
        id (UUID):
        issuer (str):
        last_used_at (datetime.datetime | None):
        provider (str):
        subject (str):
    """

    created_at: datetime.datetime
    email: None | str
    email_verified: bool
    id: UUID
    issuer: str
    last_used_at: datetime.datetime | None
    provider: str
    subject: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at.isoformat()

        email: None | str
        email = self.email

        email_verified = self.email_verified

        id = str(self.id)

        issuer = self.issuer

        last_used_at: None | str
        if isinstance(self.last_used_at, datetime.datetime):
            last_used_at = self.last_used_at.isoformat()
        else:
            last_used_at = self.last_used_at

        provider = self.provider

        subject = self.subject

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "createdAt": created_at,
                "email": email,
                "emailVerified": email_verified,
                "id": id,
                "issuer": issuer,
                "lastUsedAt": last_used_at,
                "provider": provider,
                "subject": subject,
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

        email_verified = d.pop("emailVerified")

        id = UUID(d.pop("id"))

        issuer = d.pop("issuer")

        def _parse_last_used_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                last_used_at_type_0 = datetime.datetime.fromisoformat(data)

                return last_used_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        last_used_at = _parse_last_used_at(d.pop("lastUsedAt"))

        provider = d.pop("provider")

        subject = d.pop("subject")

        identity_out = cls(
            created_at=created_at,
            email=email,
            email_verified=email_verified,
            id=id,
            issuer=issuer,
            last_used_at=last_used_at,
            provider=provider,
            subject=subject,
        )

        identity_out.additional_properties = d
        return identity_out

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
