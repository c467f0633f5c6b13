from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="LegalIn")


@_attrs_define
class LegalIn:
    """
    Attributes:
        other (None | str | Unset):
        privacy_policy (None | str | Unset):
        terms (None | str | Unset):
    """

    other: None | str | Unset = UNSET
    privacy_policy: None | str | Unset = UNSET
    terms: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        other: None | str | Unset
        if isinstance(self.other, Unset):
            other = UNSET
        else:
            other = self.other

        privacy_policy: None | str | Unset
        if isinstance(self.privacy_policy, Unset):
            privacy_policy = UNSET
        else:
            privacy_policy = self.privacy_policy

        terms: None | str | Unset
        if isinstance(self.terms, Unset):
            terms = UNSET
        else:
            terms = self.terms

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if other is not UNSET:
            field_dict["other"] = other
        if privacy_policy is not UNSET:
            field_dict["privacyPolicy"] = privacy_policy
        if terms is not UNSET:
            field_dict["terms"] = terms

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_other(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        other = _parse_other(d.pop("other", UNSET))

        def _parse_privacy_policy(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        privacy_policy = _parse_privacy_policy(d.pop("privacyPolicy", UNSET))

        def _parse_terms(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        terms = _parse_terms(d.pop("terms", UNSET))

        legal_in = cls(
            other=other,
            privacy_policy=privacy_policy,
            terms=terms,
        )

        return legal_in
