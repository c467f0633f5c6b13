from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.web_authn_options_out_publickey import WebAuthnOptionsOutPublickey


T = TypeVar("T", bound="WebAuthnOptionsOut")


@_attrs_define
class WebAuthnOptionsOut:
    """
    Attributes:
        public_key (WebAuthnOptionsOutPublickey): The options of navigator.credentials.create / get, binary fields
            base64url
    """

    public_key: WebAuthnOptionsOutPublickey
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        public_key = self.public_key.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "publicKey": public_key,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.web_authn_options_out_publickey import WebAuthnOptionsOutPublickey

        d = dict(src_dict)
        public_key = WebAuthnOptionsOutPublickey.from_dict(d.pop("publicKey"))

        web_authn_options_out = cls(
            public_key=public_key,
        )

        web_authn_options_out.additional_properties = d
        return web_authn_options_out

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
