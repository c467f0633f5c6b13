from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.account_out import AccountOut
    from ..models.session_out import SessionOut


T = TypeVar("T", bound="SignedInOut")


@_attrs_define
class SignedInOut:
    """
    Attributes:
        csrf_token (str):
        session (SessionOut):
        user (AccountOut):
    """

    csrf_token: str
    session: SessionOut
    user: AccountOut
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        csrf_token = self.csrf_token

        session = self.session.to_dict()

        user = self.user.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "csrfToken": csrf_token,
                "session": session,
                "user": user,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.account_out import AccountOut
        from ..models.session_out import SessionOut

        d = dict(src_dict)
        csrf_token = d.pop("csrfToken")

        session = SessionOut.from_dict(d.pop("session"))

        user = AccountOut.from_dict(d.pop("user"))

        signed_in_out = cls(
            csrf_token=csrf_token,
            session=session,
            user=user,
        )

        signed_in_out.additional_properties = d
        return signed_in_out

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
