from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.payout_out import PayoutOut
    from ..models.statement_line_out import StatementLineOut


T = TypeVar("T", bound="StatementOut")


@_attrs_define
class StatementOut:
    """
    Attributes:
        lines (list[StatementLineOut]):
        payouts (list[PayoutOut]): The payouts made this month, oldest first
        period (str):
        truncated (bool): More entries than one statement shows (10,000)
    """

    lines: list[StatementLineOut]
    payouts: list[PayoutOut]
    period: str
    truncated: bool
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        lines = []
        for lines_item_data in self.lines:
            lines_item = lines_item_data.to_dict()
            lines.append(lines_item)

        payouts = []
        for payouts_item_data in self.payouts:
            payouts_item = payouts_item_data.to_dict()
            payouts.append(payouts_item)

        period = self.period

        truncated = self.truncated

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "lines": lines,
                "payouts": payouts,
                "period": period,
                "truncated": truncated,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.payout_out import PayoutOut
        from ..models.statement_line_out import StatementLineOut

        d = dict(src_dict)
        lines = []
        _lines = d.pop("lines")
        for lines_item_data in _lines:
            lines_item = StatementLineOut.from_dict(lines_item_data)

            lines.append(lines_item)

        payouts = []
        _payouts = d.pop("payouts")
        for payouts_item_data in _payouts:
            payouts_item = PayoutOut.from_dict(payouts_item_data)

            payouts.append(payouts_item)

        period = d.pop("period")

        truncated = d.pop("truncated")

        statement_out = cls(
            lines=lines,
            payouts=payouts,
            period=period,
            truncated=truncated,
        )

        statement_out.additional_properties = d
        return statement_out

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
