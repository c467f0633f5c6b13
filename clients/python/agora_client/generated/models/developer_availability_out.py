from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.check_out import CheckOut


T = TypeVar("T", bound="DeveloperAvailabilityOut")


@_attrs_define
class DeveloperAvailabilityOut:
    """
    Attributes:
        checks (list[CheckOut]):
        uptime (float | None): Share of the listed checks that found it available
    """

    checks: list[CheckOut]
    uptime: float | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        checks = []
        for checks_item_data in self.checks:
            checks_item = checks_item_data.to_dict()
            checks.append(checks_item)

        uptime: float | None
        uptime = self.uptime

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "checks": checks,
                "uptime": uptime,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.check_out import CheckOut

        d = dict(src_dict)
        checks = []
        _checks = d.pop("checks")
        for checks_item_data in _checks:
            checks_item = CheckOut.from_dict(checks_item_data)

            checks.append(checks_item)

        def _parse_uptime(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        uptime = _parse_uptime(d.pop("uptime"))

        developer_availability_out = cls(
            checks=checks,
            uptime=uptime,
        )

        developer_availability_out.additional_properties = d
        return developer_availability_out

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
