from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="LowBalanceSet")


@_attrs_define
class LowBalanceSet:
    """
    Attributes:
        threshold (float | None | str): Warn below this many credits; null: below the price of the last job.
    """

    threshold: float | None | str

    def to_dict(self) -> dict[str, Any]:
        threshold: float | None | str
        threshold = self.threshold

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "threshold": threshold,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_threshold(data: object) -> float | None | str:
            if data is None:
                return data
            return cast(float | None | str, data)

        threshold = _parse_threshold(d.pop("threshold"))

        low_balance_set = cls(
            threshold=threshold,
        )

        return low_balance_set
