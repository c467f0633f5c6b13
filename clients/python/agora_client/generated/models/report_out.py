from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="ReportOut")


@_attrs_define
class ReportOut:
    """Read from ``ratings.service.ListedReport``.

    Attributes:
        agent_id (UUID):
        created_at (datetime.datetime):
        id (UUID):
        rating_id (UUID):
        reason (str):
        reporter_email (str):
        resolved_at (datetime.datetime | None):
        review (None | str):
        stars (int):
    """

    agent_id: UUID
    created_at: datetime.datetime
    id: UUID
    rating_id: UUID
    reason: str
    reporter_email: str
    resolved_at: datetime.datetime | None
    review: None | str
    stars: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        agent_id = str(self.agent_id)

        created_at = self.created_at.isoformat()

        id = str(self.id)

        rating_id = str(self.rating_id)

        reason = self.reason

        reporter_email = self.reporter_email

        resolved_at: None | str
        if isinstance(self.resolved_at, datetime.datetime):
            resolved_at = self.resolved_at.isoformat()
        else:
            resolved_at = self.resolved_at

        review: None | str
        review = self.review

        stars = self.stars

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "agentId": agent_id,
                "createdAt": created_at,
                "id": id,
                "ratingId": rating_id,
                "reason": reason,
                "reporterEmail": reporter_email,
                "resolvedAt": resolved_at,
                "review": review,
                "stars": stars,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        agent_id = UUID(d.pop("agentId"))

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        id = UUID(d.pop("id"))

        rating_id = UUID(d.pop("ratingId"))

        reason = d.pop("reason")

        reporter_email = d.pop("reporterEmail")

        def _parse_resolved_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                resolved_at_type_0 = datetime.datetime.fromisoformat(data)

                return resolved_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        resolved_at = _parse_resolved_at(d.pop("resolvedAt"))

        def _parse_review(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        review = _parse_review(d.pop("review"))

        stars = d.pop("stars")

        report_out = cls(
            agent_id=agent_id,
            created_at=created_at,
            id=id,
            rating_id=rating_id,
            reason=reason,
            reporter_email=reporter_email,
            resolved_at=resolved_at,
            review=review,
            stars=stars,
        )

        report_out.additional_properties = d
        return report_out

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
