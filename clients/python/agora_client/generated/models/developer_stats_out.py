from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.developer_availability_out import DeveloperAvailabilityOut
    from ..models.error_seen_out import ErrorSeenOut
    from ..models.job_counts_out import JobCountsOut
    from ..models.review_out import ReviewOut


T = TypeVar("T", bound="DeveloperStatsOut")


@_attrs_define
class DeveloperStatsOut:
    """
    Attributes:
        agent_id (UUID):
        availability (DeveloperAvailabilityOut):
        credits_earned (float): Net of the marketplace fee and refunds
        failure_rate (float | None): failed / (completed + failed)
        jobs (JobCountsOut):
        last_errors (list[ErrorSeenOut]):
        p_50_duration_seconds (float | None):
        review (ReviewOut):
        status (str):
    """

    agent_id: UUID
    availability: DeveloperAvailabilityOut
    credits_earned: float
    failure_rate: float | None
    jobs: JobCountsOut
    last_errors: list[ErrorSeenOut]
    p_50_duration_seconds: float | None
    review: ReviewOut
    status: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        agent_id = str(self.agent_id)

        availability = self.availability.to_dict()

        credits_earned = self.credits_earned

        failure_rate: float | None
        failure_rate = self.failure_rate

        jobs = self.jobs.to_dict()

        last_errors = []
        for last_errors_item_data in self.last_errors:
            last_errors_item = last_errors_item_data.to_dict()
            last_errors.append(last_errors_item)

        p_50_duration_seconds: float | None
        p_50_duration_seconds = self.p_50_duration_seconds

        review = self.review.to_dict()

        status = self.status

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "agentId": agent_id,
                "availability": availability,
                "creditsEarned": credits_earned,
                "failureRate": failure_rate,
                "jobs": jobs,
                "lastErrors": last_errors,
                "p50DurationSeconds": p_50_duration_seconds,
                "review": review,
                "status": status,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.developer_availability_out import DeveloperAvailabilityOut
        from ..models.error_seen_out import ErrorSeenOut
        from ..models.job_counts_out import JobCountsOut
        from ..models.review_out import ReviewOut

        d = dict(src_dict)
        agent_id = UUID(d.pop("agentId"))

        availability = DeveloperAvailabilityOut.from_dict(d.pop("availability"))

        credits_earned = d.pop("creditsEarned")

        def _parse_failure_rate(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        failure_rate = _parse_failure_rate(d.pop("failureRate"))

        jobs = JobCountsOut.from_dict(d.pop("jobs"))

        last_errors = []
        _last_errors = d.pop("lastErrors")
        for last_errors_item_data in _last_errors:
            last_errors_item = ErrorSeenOut.from_dict(last_errors_item_data)

            last_errors.append(last_errors_item)

        def _parse_p_50_duration_seconds(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        p_50_duration_seconds = _parse_p_50_duration_seconds(d.pop("p50DurationSeconds"))

        review = ReviewOut.from_dict(d.pop("review"))

        status = d.pop("status")

        developer_stats_out = cls(
            agent_id=agent_id,
            availability=availability,
            credits_earned=credits_earned,
            failure_rate=failure_rate,
            jobs=jobs,
            last_errors=last_errors,
            p_50_duration_seconds=p_50_duration_seconds,
            review=review,
            status=status,
        )

        developer_stats_out.additional_properties = d
        return developer_stats_out

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
