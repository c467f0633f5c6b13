from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.account_deletion_out import AccountDeletionOut


T = TypeVar("T", bound="EnvelopeAAccountDeletionOut")


@_attrs_define
class EnvelopeAAccountDeletionOut:
    """
    Attributes:
        data (AccountDeletionOut): The account's deletion (docs/accounts.md, "Deleting your account"): requested (a mail
            asks to confirm) → scheduled (erased at ``eraseAfter`` unless the person signs in) →
            cancelled | erased; ``none`` when never asked.
        success (bool | Unset):  Default: True.
        timestamp (str | Unset):
    """

    data: AccountDeletionOut
    success: bool | Unset = True
    timestamp: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        data = self.data.to_dict()

        success = self.success

        timestamp = self.timestamp

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "data": data,
            }
        )
        if success is not UNSET:
            field_dict["success"] = success
        if timestamp is not UNSET:
            field_dict["timestamp"] = timestamp

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.account_deletion_out import AccountDeletionOut

        d = dict(src_dict)
        data = AccountDeletionOut.from_dict(d.pop("data"))

        success = d.pop("success", UNSET)

        timestamp = d.pop("timestamp", UNSET)

        envelope_a_account_deletion_out = cls(
            data=data,
            success=success,
            timestamp=timestamp,
        )

        envelope_a_account_deletion_out.additional_properties = d
        return envelope_a_account_deletion_out

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
