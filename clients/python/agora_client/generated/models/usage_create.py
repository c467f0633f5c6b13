from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="UsageCreate")


@_attrs_define
class UsageCreate:
    """
    Attributes:
        credits_ (float):
        idempotency_key (str):
        user_id (str):
        organization_id (None | str | Unset):
        reference_id (None | str | Unset):
    """

    credits_: float
    idempotency_key: str
    user_id: str
    organization_id: None | str | Unset = UNSET
    reference_id: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        credits_ = self.credits_

        idempotency_key = self.idempotency_key

        user_id = self.user_id

        organization_id: None | str | Unset
        if isinstance(self.organization_id, Unset):
            organization_id = UNSET
        else:
            organization_id = self.organization_id

        reference_id: None | str | Unset
        if isinstance(self.reference_id, Unset):
            reference_id = UNSET
        else:
            reference_id = self.reference_id

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "credits": credits_,
                "idempotencyKey": idempotency_key,
                "userId": user_id,
            }
        )
        if organization_id is not UNSET:
            field_dict["organizationId"] = organization_id
        if reference_id is not UNSET:
            field_dict["referenceId"] = reference_id

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        credits_ = d.pop("credits")

        idempotency_key = d.pop("idempotencyKey")

        user_id = d.pop("userId")

        def _parse_organization_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        organization_id = _parse_organization_id(d.pop("organizationId", UNSET))

        def _parse_reference_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        reference_id = _parse_reference_id(d.pop("referenceId", UNSET))

        usage_create = cls(
            credits_=credits_,
            idempotency_key=idempotency_key,
            user_id=user_id,
            organization_id=organization_id,
            reference_id=reference_id,
        )

        return usage_create
