from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="SignUpIn")


@_attrs_define
class SignUpIn:
    """
    Attributes:
        email (str):
        name (str):
        password (str):
    """

    email: str
    name: str
    password: str

    def to_dict(self) -> dict[str, Any]:
        email = self.email

        name = self.name

        password = self.password

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "email": email,
                "name": name,
                "password": password,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        email = d.pop("email")

        name = d.pop("name")

        password = d.pop("password")

        sign_up_in = cls(
            email=email,
            name=name,
            password=password,
        )

        return sign_up_in
