from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from agora.kit.envelopes import ApiModel
from agora.kit.money import to_display
from agora.kit.timeutil import isoformat
from agora.models import Agent, Category

AGENT_STATUSES = ("PENDING", "VERIFIED", "REVOKED", "EXPIRED")


class Price(BaseModel):
    credits: float
    includedFee: float


class Tag(BaseModel):
    name: str


class CategoryRef(BaseModel):
    slug: str
    name: str


class AgentOut(BaseModel):
    id: str
    createdAt: str
    updatedAt: str
    name: str
    description: str
    status: str
    isShown: bool
    pricingType: str
    price: Price
    tags: list[Tag]
    categories: list[CategoryRef]
    jobCount: int

    @classmethod
    def of(cls, agent: Agent, categories: list[Category]) -> AgentOut:
        return cls(
            id=str(agent.id),
            createdAt=isoformat(agent.created_at) or "",
            updatedAt=isoformat(agent.updated_at) or "",
            name=agent.name,
            description=agent.description,
            status=agent.status,
            isShown=agent.is_shown,
            pricingType=agent.pricing_type,
            price=Price(
                credits=to_display(agent.price + agent.fee), includedFee=to_display(agent.fee)
            ),
            tags=[Tag(name=str(t.get("name", ""))) for t in agent.tags if isinstance(t, dict)],
            categories=[CategoryRef(slug=c.slug, name=c.name) for c in categories],
            jobCount=agent.job_count,
        )


class CategoryOut(BaseModel):
    id: str
    slug: str
    name: str
    description: str

    @classmethod
    def of(cls, category: Category) -> CategoryOut:
        return cls(
            id=str(category.id),
            slug=category.slug,
            name=category.name,
            description=category.description,
        )


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
