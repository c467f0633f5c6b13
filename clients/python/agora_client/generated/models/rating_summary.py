from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.rating_summary_distribution import RatingSummaryDistribution


T = TypeVar("T", bound="RatingSummary")


@_attrs_define
class RatingSummary:
    """The agent's ratings: ``average`` of the stars (null without ratings), ``count``,
    ``distribution`` (how many of each star, "1" to "5") and ``score``, the Bayesian average the
    rating sort orders by (docs/agents.md, "Sorting").

        Attributes:
            average (float | None):
            count (int):
            distribution (RatingSummaryDistribution):
            score (float):
    """

    average: float | None
    count: int
    distribution: RatingSummaryDistribution
    score: float
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        average: float | None
        average = self.average

        count = self.count

        distribution = self.distribution.to_dict()

        score = self.score

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "average": average,
                "count": count,
                "distribution": distribution,
                "score": score,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.rating_summary_distribution import RatingSummaryDistribution

        d = dict(src_dict)

        def _parse_average(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        average = _parse_average(d.pop("average"))

        count = d.pop("count")

        distribution = RatingSummaryDistribution.from_dict(d.pop("distribution"))

        score = d.pop("score")

        rating_summary = cls(
            average=average,
            count=count,
            distribution=distribution,
            score=score,
        )

        rating_summary.additional_properties = d
        return rating_summary

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
