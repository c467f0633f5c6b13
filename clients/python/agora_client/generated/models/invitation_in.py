from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.invitation_in_role import InvitationInRole, check_invitation_in_role
from ..types import UNSET, Unset

T = TypeVar("T", bound="InvitationIn")


@_attrs_define
class InvitationIn:
    """
    Attributes:
        email (None | str | Unset):
        expires_in_days (float | None | Unset):
        max_uses (int | None | Unset):
        role (InvitationInRole | Unset):  Default: 'member'.
    """

    email: None | str | Unset = UNSET
    expires_in_days: float | None | Unset = UNSET
    max_uses: int | None | Unset = UNSET
    role: InvitationInRole | Unset = "member"

    def to_dict(self) -> dict[str, Any]:
        email: None | str | Unset
        if isinstance(self.email, Unset):
            email = UNSET
        else:
            email = self.email

        expires_in_days: float | None | Unset
        if isinstance(self.expires_in_days, Unset):
            expires_in_days = UNSET
        else:
            expires_in_days = self.expires_in_days

        max_uses: int | None | Unset
        if isinstance(self.max_uses, Unset):
            max_uses = UNSET
        else:
            max_uses = self.max_uses

        role: str | Unset = UNSET
        if not isinstance(self.role, Unset):
            role = self.role

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if email is not UNSET:
            field_dict["email"] = email
        if expires_in_days is not UNSET:
            field_dict["expiresInDays"] = expires_in_days
        if max_uses is not UNSET:
            field_dict["maxUses"] = max_uses
        if role is not UNSET:
            field_dict["role"] = role

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_email(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        email = _parse_email(d.pop("email", UNSET))

        def _parse_expires_in_days(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        expires_in_days = _parse_expires_in_days(d.pop("expiresInDays", UNSET))

        def _parse_max_uses(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        max_uses = _parse_max_uses(d.pop("maxUses", UNSET))

        _role = d.pop("role", UNSET)
        role: InvitationInRole | Unset
        if isinstance(_role, Unset):
            role = UNSET
        else:
            role = check_invitation_in_role(_role)

        invitation_in = cls(
            email=email,
            expires_in_days=expires_in_days,
            max_uses=max_uses,
            role=role,
        )

        return invitation_in
