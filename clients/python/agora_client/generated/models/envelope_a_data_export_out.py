from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.data_export_out import DataExportOut


T = TypeVar("T", bound="EnvelopeADataExportOut")


@_attrs_define
class EnvelopeADataExportOut:
    """
    Attributes:
        data (DataExportOut): One data export (docs/accounts.md, "Your data"): pending → ready (mailed) → downloaded |
            expired | failed.
        success (bool | Unset):  Default: True.
        timestamp (str | Unset):
    """

    data: DataExportOut
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
        from ..models.data_export_out import DataExportOut

        d = dict(src_dict)
        data = DataExportOut.from_dict(d.pop("data"))

        success = d.pop("success", UNSET)

        timestamp = d.pop("timestamp", UNSET)

        envelope_a_data_export_out = cls(
            data=data,
            success=success,
            timestamp=timestamp,
        )

        envelope_a_data_export_out.additional_properties = d
        return envelope_a_data_export_out

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
