from __future__ import annotations

from datetime import timedelta
from typing import Any
from uuid import UUID

from pydantic import BaseModel, Field, computed_field, field_validator

from agora.kit.envelopes import ApiModel
from agora.kit.schemas import Credits, Schema, UtcDateTime
from agora.kit.timeutil import utcnow
from agora.models.statuses import AgentStatus

AGENT_STATUSES = tuple(AgentStatus)
NEW_FOR = timedelta(days=30)


class Price(Schema):
    """A price in display units: ``credits`` is what the caller pays, fee included."""

    credits: Credits
    included_fee: Credits


class Tag(Schema):
    name: str


class CategoryRef(Schema):
    slug: str
    name: str


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

    @field_validator("tags", mode="before")
    @classmethod
    def _tags(cls, tags: list[Any]) -> list[dict[str, str]]:
        return [{"name": str(t.get("name", ""))} for t in tags if isinstance(t, dict)]

    @computed_field  # type: ignore[prop-decorator]
    @property
    def price(self) -> Price:
        return Price(credits=self.base_price + self.fee, included_fee=self.fee)

    @computed_field(description="Registered in the last 30 days.")  # type: ignore[prop-decorator]
    @property
    def is_new(self) -> bool:
        return utcnow() - self.created_at < NEW_FOR


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
