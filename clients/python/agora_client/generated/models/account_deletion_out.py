from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="AccountDeletionOut")


@_attrs_define
class AccountDeletionOut:
    """The account's deletion (docs/accounts.md, "Deleting your account"): requested (a mail
    asks to confirm) → scheduled (erased at ``eraseAfter`` unless the person signs in) →
    cancelled | erased; ``none`` when never asked.

        Attributes:
            state (str):
            cancelled_at (datetime.datetime | None | Unset):
            confirmed_at (datetime.datetime | None | Unset):
            erase_after (datetime.datetime | None | Unset):
            requested_at (datetime.datetime | None | Unset):
    """

    state: str
    cancelled_at: datetime.datetime | None | Unset = UNSET
    confirmed_at: datetime.datetime | None | Unset = UNSET
    erase_after: datetime.datetime | None | Unset = UNSET
    requested_at: datetime.datetime | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        state = self.state

        cancelled_at: None | str | Unset
        if isinstance(self.cancelled_at, Unset):
            cancelled_at = UNSET
        elif isinstance(self.cancelled_at, datetime.datetime):
            cancelled_at = self.cancelled_at.isoformat()
        else:
            cancelled_at = self.cancelled_at

        confirmed_at: None | str | Unset
        if isinstance(self.confirmed_at, Unset):
            confirmed_at = UNSET
        elif isinstance(self.confirmed_at, datetime.datetime):
            confirmed_at = self.confirmed_at.isoformat()
        else:
            confirmed_at = self.confirmed_at

        erase_after: None | str | Unset
        if isinstance(self.erase_after, Unset):
            erase_after = UNSET
        elif isinstance(self.erase_after, datetime.datetime):
            erase_after = self.erase_after.isoformat()
        else:
            erase_after = self.erase_after

        requested_at: None | str | Unset
        if isinstance(self.requested_at, Unset):
            requested_at = UNSET
        elif isinstance(self.requested_at, datetime.datetime):
            requested_at = self.requested_at.isoformat()
        else:
            requested_at = self.requested_at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "state": state,
            }
        )
        if cancelled_at is not UNSET:
            field_dict["cancelledAt"] = cancelled_at
        if confirmed_at is not UNSET:
            field_dict["confirmedAt"] = confirmed_at
        if erase_after is not UNSET:
            field_dict["eraseAfter"] = erase_after
        if requested_at is not UNSET:
            field_dict["requestedAt"] = requested_at

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        state = d.pop("state")

        def _parse_cancelled_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                cancelled_at_type_0 = datetime.datetime.fromisoformat(data)

                return cancelled_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        cancelled_at = _parse_cancelled_at(d.pop("cancelledAt", UNSET))

        def _parse_confirmed_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                confirmed_at_type_0 = datetime.datetime.fromisoformat(data)

                return confirmed_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        confirmed_at = _parse_confirmed_at(d.pop("confirmedAt", UNSET))

        def _parse_erase_after(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                erase_after_type_0 = datetime.datetime.fromisoformat(data)

                return erase_after_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        erase_after = _parse_erase_after(d.pop("eraseAfter", UNSET))

        def _parse_requested_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                requested_at_type_0 = datetime.datetime.fromisoformat(data)

                return requested_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        requested_at = _parse_requested_at(d.pop("requestedAt", UNSET))

        account_deletion_out = cls(
            state=state,
            cancelled_at=cancelled_at,
            confirmed_at=confirmed_at,
            erase_after=erase_after,
            requested_at=requested_at,
        )

        account_deletion_out.additional_properties = d
        return account_deletion_out

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
