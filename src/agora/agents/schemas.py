from __future__ import annotations

from datetime import datetime, timedelta
from typing import Annotated, Any
from uuid import UUID

from fastapi import Path
from pydantic import BaseModel, Field, computed_field, field_validator, with_config
from typing_extensions import TypedDict

from agora.kit.envelopes import ApiModel
from agora.kit.schemas import CAMEL_ON_THE_WIRE, Credits, Schema, UtcDateTime, wire_credits
from agora.kit.timeutil import as_utc, utcnow
from agora.models.agent import RATING_PRIOR_MEAN, RATING_PRIOR_WEIGHT
from agora.models.statuses import AgentStatus

AGENT_STATUSES = tuple(AgentStatus)

# The catalogue's path parameters. Ids stay ``str`` in the path: a malformed id answers the same
# 404 as an unknown one (ids are opaque), which a ``UUID`` path type would turn into a 400.
AgentId = Annotated[str, Path(alias="agentId")]
CategoryIdOrSlug = Annotated[str, Path(alias="idOrSlug")]


def bayesian(stars_sum: int, count: int) -> float:
    """(PRIOR_WEIGHT * PRIOR_MEAN + Σ stars) ÷ (PRIOR_WEIGHT + n): the rating sort's score
    (agents/repository.py orders by the same formula in SQL)."""
    return (RATING_PRIOR_WEIGHT * RATING_PRIOR_MEAN + stars_sum) / (RATING_PRIOR_WEIGHT + count)


NEW_FOR = timedelta(days=30)


# Value shapes built for every listed item (an agent's price and rating, a job's price and
# refund) are TypedDicts: plain dicts, validated and written by pydantic's core without a
# model per value (docs/performance.md, eighth round).
@with_config(CAMEL_ON_THE_WIRE)
class Price(TypedDict):
    """A price in display units: ``credits`` is what the caller pays, fee included."""

    credits: Credits
    included_fee: Credits


class Tag(Schema):
    name: str


class CategoryRef(Schema):
    slug: str
    name: str


@with_config(CAMEL_ON_THE_WIRE)
class RatingSummary(TypedDict):
    """The agent's ratings: ``average`` of the stars (null without ratings), ``count``,
    ``distribution`` (how many of each star, "1" to "5") and ``score``, the Bayesian average the
    rating sort orders by (docs/agents.md, "Sorting")."""

    average: float | None
    count: int
    distribution: dict[str, int]
    score: float


class AgentOut(Schema):
    """Read from ``agents.service.ListedAgent`` (an ``Agent`` row and its categories)."""

    id: UUID
    created_at: UtcDateTime
    updated_at: UtcDateTime
    name: str
    description: str
    status: AgentStatus
    is_shown: bool
    pricing_type: str
    base_price: int = Field(validation_alias="price", exclude=True)
    fee: int = Field(exclude=True)
    tags: list[Tag]
    categories: list[CategoryRef]
    job_count: int
    rating_count: int = Field(default=0, exclude=True)
    rating_sum: int = Field(default=0, exclude=True)
    rating_1: int = Field(default=0, exclude=True)
    rating_2: int = Field(default=0, exclude=True)
    rating_3: int = Field(default=0, exclude=True)
    rating_4: int = Field(default=0, exclude=True)
    rating_5: int = Field(default=0, exclude=True)
    featured_at: UtcDateTime | None = Field(default=None, exclude=True)
    version: int | None = Field(
        default=None,
        validation_alias="current_version",
        description="The agent's current version (GET /v1/agents/{id}/versions); null before "
        "its first approval.",
    )

    @field_validator("tags", mode="before")
    @classmethod
    def _tags(cls, tags: list[Any]) -> list[dict[str, str]]:
        return tag_list(tags)

    @computed_field
    def price(self) -> Price:
        return Price(credits=self.base_price + self.fee, included_fee=self.fee)

    @computed_field
    def rating(self) -> RatingSummary:
        return rating_summary(self)

    @computed_field(description="Chosen by the operator.")
    def featured(self) -> bool:
        return self.featured_at is not None

    @computed_field(description="Registered in the last 30 days.")
    def is_new(self) -> bool:
        return is_new(self.created_at)


def tag_list(tags: list[Any]) -> list[dict[str, str]]:
    """The stored tags as the wire shows them (entries that are not objects are left out)."""
    return [{"name": str(t.get("name", ""))} for t in tags if isinstance(t, dict)]


def rating_summary(agent: Any) -> RatingSummary:
    """``RatingSummary`` of an agent row, entity or ``AgentOut`` (its rating columns)."""
    count = agent.rating_count
    return RatingSummary(
        average=round(agent.rating_sum / count, 2) if count else None,
        count=count,
        distribution={
            "1": agent.rating_1,
            "2": agent.rating_2,
            "3": agent.rating_3,
            "4": agent.rating_4,
            "5": agent.rating_5,
        },
        score=round(bayesian(agent.rating_sum, count), 4),
    )


def is_new(created_at: datetime) -> bool:
    return utcnow() - as_utc(created_at) < NEW_FOR


def price_json(charged: int, included_fee: int) -> dict[str, float]:
    """``Price`` as its JSON (kit/wire.py)."""
    return {"credits": wire_credits(charged), "includedFee": wire_credits(included_fee)}


def agent_item(agent: Any) -> dict[str, Any]:
    """``AgentOut``'s JSON for a listed agent (``agents.service.ListedAgent``), written without
    the model (kit/wire.py)."""
    row = agent.row
    fee = row.fee
    return {
        "id": row.id,
        "createdAt": row.created_at,
        "updatedAt": row.updated_at,
        "name": row.name,
        "description": row.description,
        "status": row.status,
        "isShown": row.is_shown,
        "pricingType": row.pricing_type,
        "tags": tag_list(row.tags),
        "categories": [{"slug": c.slug, "name": c.name} for c in agent.categories],
        "jobCount": row.job_count,
        "version": row.current_version,
        "price": price_json(row.price + fee, fee),
        "rating": rating_summary(row),
        "featured": row.featured_at is not None,
        "isNew": is_new(row.created_at),
    }


class ConformanceOut(Schema):
    """The Conformant badge (docs/developer.md, "Certification"): the latest passing run's time
    and the suite's version."""

    passed_at: UtcDateTime
    suite_version: str


class AgentDetailOut(AgentOut):
    """One agent (``GET /v1/agents/{id}``): ``AgentOut`` and its Conformant badge."""

    conformance: ConformanceOut | None = Field(
        default=None, description="The Conformant badge; null when the listing holds none."
    )


class AgentVersionOut(Schema):
    """One version of an agent (read from an ``AgentVersion`` row)."""

    number: int
    changelog: str
    created_at: UtcDateTime
    pricing_type: str
    base_price: int = Field(validation_alias="price", exclude=True)
    fee: int = Field(exclude=True)
    input_schema: dict[str, Any] | None

    @computed_field
    def price(self) -> Price:
        return Price(credits=self.base_price + self.fee, included_fee=self.fee)


class InputField(Schema):
    id: str
    type: str
    name: str


class AvailabilityOut(Schema):
    available: bool | None = Field(description="The latest check's answer; null if never checked")
    checked_at: UtcDateTime | None


class ComparedAgentOut(AgentOut):
    """Read from ``agents.service.ComparedAgent``."""

    p50_duration_seconds: float | None = Field(description="Median of recent completed jobs")
    failure_rate: float | None = Field(description="failed ÷ (completed + failed)")
    completed_jobs_30d: int = Field(
        alias="completedJobs30d", description="Completed jobs, last 30 days"
    )
    available: bool | None = Field(exclude=True)
    checked_at: UtcDateTime | None = Field(exclude=True)
    input_fields: list[InputField]

    @computed_field
    def availability(self) -> AvailabilityOut:
        return AvailabilityOut(available=self.available, checked_at=self.checked_at)


class CategoryOut(Schema):
    """Read from a ``Category`` row, or ``agents.service.CountedCategory`` (with its count)."""

    id: UUID
    slug: str
    name: str
    description: str
    agent_count: int = Field(default=0, description="Available (verified, shown) agents in it.")


class InputSchemaOut(BaseModel):
    agentId: str
    input_data: list[dict[str, Any]] | None = None
    input_groups: list[dict[str, Any]] | None = None


class AgentRegistration(ApiModel):
    baseUrl: str = Field(min_length=1, max_length=2000)
    name: str = Field(min_length=1, max_length=200)
    description: str = Field(default="", max_length=10_000)
    price: float | int | str = Field(default=0, description="Base price in credits (fee added).")
    categories: list[str] = Field(default_factory=list, max_length=20)
    tags: list[str] = Field(default_factory=list, max_length=50)
    verify: bool = False
    isShown: bool = True


class CategoryCreate(ApiModel):
    slug: str = Field(min_length=1, max_length=100)
    name: str = Field(min_length=1, max_length=200)
    description: str = Field(default="", max_length=2000)


class SavedInputCreate(ApiModel):
    name: str = Field(min_length=1, max_length=200)
    inputData: dict[str, Any] = Field(default_factory=dict)
    agentVersion: int | None = Field(
        default=None,
        ge=1,
        description="Pin this version of the agent; left out: follow the latest compatible one "
        "(the newest version whose input schema accepts inputData).",
    )


class SavedInputOut(Schema):
    """A saved input (read from a ``SavedInput`` row)."""

    id: UUID
    agent_id: UUID
    name: str
    input_data: dict[str, Any]
    agent_version: int | None = Field(
        description="The pinned version; null: follows the latest compatible version."
    )
    created_at: UtcDateTime
    updated_at: UtcDateTime
