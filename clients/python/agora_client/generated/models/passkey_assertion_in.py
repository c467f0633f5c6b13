from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.passkey_assertion_in_credential import PasskeyAssertionInCredential


T = TypeVar("T", bound="PasskeyAssertionIn")


@_attrs_define
class PasskeyAssertionIn:
    """
    Attributes:
        credential (PasskeyAssertionInCredential):
    """

    credential: PasskeyAssertionInCredential

    def to_dict(self) -> dict[str, Any]:
        credential = self.credential.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "credential": credential,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.passkey_assertion_in_credential import PasskeyAssertionInCredential

        d = dict(src_dict)
        credential = PasskeyAssertionInCredential.from_dict(d.pop("credential"))

        passkey_assertion_in = cls(
            credential=credential,
        )

        return passkey_assertion_in
