from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.agent_status import AgentStatus, check_agent_status
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.agents_availability_out import AgentsAvailabilityOut
    from ..models.category_ref import CategoryRef
    from ..models.input_field import InputField
    from ..models.price import Price
    from ..models.rating_summary import RatingSummary
    from ..models.tag import Tag


T = TypeVar("T", bound="ComparedAgentOut")


@_attrs_define
class ComparedAgentOut:
    """Read from ``agents.service.ComparedAgent``.

    Attributes:
        availability (AgentsAvailabilityOut):
        categories (list[CategoryRef]):
        completed_jobs_30_d (int): Completed jobs, last 30 days
        created_at (datetime.datetime):
        description (str):
        failure_rate (float | None): failed ÷ (completed + failed)
        featured (bool): Chosen by the operator.
        id (UUID):
        input_fields (list[InputField]):
        is_new (bool): Registered in the last 30 days.
        is_shown (bool):
        job_count (int):
        name (str):
        p_50_duration_seconds (float | None): Median of recent completed jobs
        price (Price): A price in display units: ``credits`` is what the caller pays, fee included.
        pricing_type (str):
        rating (RatingSummary): The agent's ratings: ``average`` of the stars (null without ratings), ``count``,
            ``distribution`` (how many of each star, "1" to "5") and ``score``, the Bayesian average the
            rating sort orders by (docs/agents.md, "Sorting").
        status (AgentStatus):
        tags (list[Tag]):
        updated_at (datetime.datetime):
        version (int | None | Unset): The agent's current version (GET /v1/agents/{id}/versions); null before its first
            approval.
    """

    availability: AgentsAvailabilityOut
    categories: list[CategoryRef]
    completed_jobs_30_d: int
    created_at: datetime.datetime
    description: str
    failure_rate: float | None
    featured: bool
    id: UUID
    input_fields: list[InputField]
    is_new: bool
    is_shown: bool
    job_count: int
    name: str
    p_50_duration_seconds: float | None
    price: Price
    pricing_type: str
    rating: RatingSummary
    status: AgentStatus
    tags: list[Tag]
    updated_at: datetime.datetime
    version: int | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        availability = self.availability.to_dict()

        categories = []
        for categories_item_data in self.categories:
            categories_item = categories_item_data.to_dict()
            categories.append(categories_item)

        completed_jobs_30_d = self.completed_jobs_30_d

        created_at = self.created_at.isoformat()

        description = self.description

        failure_rate: float | None
        failure_rate = self.failure_rate

        featured = self.featured

        id = str(self.id)

        input_fields = []
        for input_fields_item_data in self.input_fields:
            input_fields_item = input_fields_item_data.to_dict()
            input_fields.append(input_fields_item)

        is_new = self.is_new

        is_shown = self.is_shown

        job_count = self.job_count

        name = self.name

        p_50_duration_seconds: float | None
        p_50_duration_seconds = self.p_50_duration_seconds

        price = self.price.to_dict()

        pricing_type = self.pricing_type

        rating = self.rating.to_dict()

        status: str = self.status

        tags = []
        for tags_item_data in self.tags:
            tags_item = tags_item_data.to_dict()
            tags.append(tags_item)

        updated_at = self.updated_at.isoformat()

        version: int | None | Unset
        if isinstance(self.version, Unset):
            version = UNSET
        else:
            version = self.version

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "availability": availability,
                "categories": categories,
                "completedJobs30d": completed_jobs_30_d,
                "createdAt": created_at,
                "description": description,
                "failureRate": failure_rate,
                "featured": featured,
                "id": id,
                "inputFields": input_fields,
                "isNew": is_new,
                "isShown": is_shown,
                "jobCount": job_count,
                "name": name,
                "p50DurationSeconds": p_50_duration_seconds,
                "price": price,
                "pricingType": pricing_type,
                "rating": rating,
                "status": status,
                "tags": tags,
                "updatedAt": updated_at,
            }
        )
        if version is not UNSET:
            field_dict["version"] = version

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.agents_availability_out import AgentsAvailabilityOut
        from ..models.category_ref import CategoryRef
        from ..models.input_field import InputField
        from ..models.price import Price
        from ..models.rating_summary import RatingSummary
        from ..models.tag import Tag

        d = dict(src_dict)
        availability = AgentsAvailabilityOut.from_dict(d.pop("availability"))

        categories = []
        _categories = d.pop("categories")
        for categories_item_data in _categories:
            categories_item = CategoryRef.from_dict(categories_item_data)

            categories.append(categories_item)

        completed_jobs_30_d = d.pop("completedJobs30d")

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        description = d.pop("description")

        def _parse_failure_rate(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        failure_rate = _parse_failure_rate(d.pop("failureRate"))

        featured = d.pop("featured")

        id = UUID(d.pop("id"))

        input_fields = []
        _input_fields = d.pop("inputFields")
        for input_fields_item_data in _input_fields:
            input_fields_item = InputField.from_dict(input_fields_item_data)

            input_fields.append(input_fields_item)

        is_new = d.pop("isNew")

        is_shown = d.pop("isShown")

        job_count = d.pop("jobCount")

        name = d.pop("name")

        def _parse_p_50_duration_seconds(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        p_50_duration_seconds = _parse_p_50_duration_seconds(d.pop("p50DurationSeconds"))

        price = Price.from_dict(d.pop("price"))

        pricing_type = d.pop("pricingType")

        rating = RatingSummary.from_dict(d.pop("rating"))

        status = check_agent_status(d.pop("status"))

        tags = []
        _tags = d.pop("tags")
        for tags_item_data in _tags:
            tags_item = Tag.from_dict(tags_item_data)

            tags.append(tags_item)

        updated_at = datetime.datetime.fromisoformat(d.pop("updatedAt"))

        def _parse_version(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        version = _parse_version(d.pop("version", UNSET))

        compared_agent_out = cls(
            availability=availability,
            categories=categories,
            completed_jobs_30_d=completed_jobs_30_d,
            created_at=created_at,
            description=description,
            failure_rate=failure_rate,
            featured=featured,
            id=id,
            input_fields=input_fields,
            is_new=is_new,
            is_shown=is_shown,
            job_count=job_count,
            name=name,
            p_50_duration_seconds=p_50_duration_seconds,
            price=price,
            pricing_type=pricing_type,
            rating=rating,
            status=status,
            tags=tags,
            updated_at=updated_at,
            version=version,
        )

        compared_agent_out.additional_properties = d
        return compared_agent_out

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
