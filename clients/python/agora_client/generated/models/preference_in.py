from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="PreferenceIn")


@_attrs_define
class PreferenceIn:
    """
    Attributes:
        kind (str):
        inbox (bool | None | Unset):
        mail (bool | None | Unset):
    """

    kind: str
    inbox: bool | None | Unset = UNSET
    mail: bool | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        kind = self.kind

        inbox: bool | None | Unset
        if isinstance(self.inbox, Unset):
            inbox = UNSET
        else:
            inbox = self.inbox

        mail: bool | None | Unset
        if isinstance(self.mail, Unset):
            mail = UNSET
        else:
            mail = self.mail

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "kind": kind,
            }
        )
        if inbox is not UNSET:
            field_dict["inbox"] = inbox
        if mail is not UNSET:
            field_dict["mail"] = mail

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        kind = d.pop("kind")

        def _parse_inbox(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        inbox = _parse_inbox(d.pop("inbox", UNSET))

        def _parse_mail(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        mail = _parse_mail(d.pop("mail", UNSET))

        preference_in = cls(
            kind=kind,
            inbox=inbox,
            mail=mail,
        )

        return preference_in
