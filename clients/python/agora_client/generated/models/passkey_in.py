from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.passkey_in_credential import PasskeyInCredential


T = TypeVar("T", bound="PasskeyIn")


@_attrs_define
class PasskeyIn:
    """
    Attributes:
        credential (PasskeyInCredential):
        name (str | Unset):  Default: ''.
    """

    credential: PasskeyInCredential
    name: str | Unset = ""

    def to_dict(self) -> dict[str, Any]:
        credential = self.credential.to_dict()

        name = self.name

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "credential": credential,
            }
        )
        if name is not UNSET:
            field_dict["name"] = name

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.passkey_in_credential import PasskeyInCredential

        d = dict(src_dict)
        credential = PasskeyInCredential.from_dict(d.pop("credential"))

        name = d.pop("name", UNSET)

        passkey_in = cls(
            credential=credential,
            name=name,
        )

        return passkey_in
