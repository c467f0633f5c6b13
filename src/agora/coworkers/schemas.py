"""API models of coworkers (bearer family). Output models read rows (``kit.schemas.Schema``)."""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta
from typing import Annotated, Any, Literal

from fastapi import Query
from pydantic import Field, computed_field

from agora.agents.schemas import Price
from agora.kit.envelopes import ApiModel
from agora.kit.schemas import Credits, Schema, UtcDateTime
from agora.kit.timeutil import utcnow
from agora.models.statuses import CoworkerStatus

Capability = Literal["chat", "tasks"]
CAPABILITIES: tuple[str, ...] = ("chat", "tasks")
Scope = Literal["whitelisted", "all", "archived"]
SCOPES: tuple[str, ...] = ("whitelisted", "all", "archived")
# The coworker API's cursor pages (GET /v1/coworkers and /v1/coworkers/me/events, the latter
# the tasks domain's route).
LimitQuery = Annotated[int | None, Query(ge=1, le=100, description="Page size (default 20).")]
CursorQuery = Annotated[
    str | None, Query(max_length=100, description="`nextCursor` of the previous page.")
]
NEW_FOR = timedelta(days=30)


class Vendor(Schema):
    name: str | None
    logo: str | None
    url: str | None


class CoworkerOut(Schema):
    """Read from a ``Coworker`` row."""

    id: uuid.UUID
    created_at: UtcDateTime
    updated_at: UtcDateTime
    archived_at: UtcDateTime | None
    whitelisted_at: UtcDateTime | None
    priority: int
    slug: str
    name: str
    caption: str | None
    company: str | None
    company_logo: str | None
    url: str | None
    base_url: str | None = Field(alias="baseURL")
    email: str | None
    description: str | None
    image: str | None
    metadata: dict[str, Any] | None = Field(validation_alias="meta")
    capabilities: list[str]
    estimated_duration: int | None
    price_base: int = Field(default=0, validation_alias="price", exclude=True)

    @computed_field
    def status(self) -> CoworkerStatus:
        """ARCHIVED, WHITELISTED or PENDING (registered, not yet whitelisted)."""
        if self.archived_at is not None:
            return CoworkerStatus.ARCHIVED
        if self.whitelisted_at is not None:
            return CoworkerStatus.WHITELISTED
        return CoworkerStatus.PENDING

    @computed_field(alias="isWhitelisted")
    def is_whitelisted(self) -> bool:
        return self.whitelisted_at is not None

    @computed_field(alias="isShown")
    def is_shown(self) -> bool:
        return self.whitelisted_at is not None and self.archived_at is None

    @computed_field(alias="isNew")
    def is_new(self) -> bool:
        return utcnow() - self.created_at < NEW_FOR

    @computed_field
    def price(self) -> Price:
        return Price(credits=self.price_base, included_fee=0)

    @computed_field
    def vendor(self) -> Vendor:
        return Vendor(name=self.company, logo=self.company_logo, url=self.url)


class CoworkerRef(Schema):
    """Read from a ``Coworker`` row."""

    id: uuid.UUID
    name: str
    slug: str


def _default_capabilities() -> list[Capability]:
    return ["tasks"]


class _CoworkerProfile(ApiModel):
    """The optional descriptive fields, shared by registration and PATCH."""

    caption: str | None = Field(default=None, max_length=500)
    company: str | None = Field(default=None, max_length=200)
    companyLogo: str | None = Field(default=None, max_length=2000)
    url: str | None = Field(default=None, max_length=2000)
    baseURL: str | None = Field(default=None, max_length=2000)
    email: str | None = Field(default=None, max_length=320)
    description: str | None = Field(default=None, max_length=10_000)
    image: str | None = Field(default=None, max_length=2000)
    metadata: dict[str, Any] | None = None


class CoworkerCreate(_CoworkerProfile):
    name: str = Field(min_length=1, max_length=200)
    capabilities: list[Capability] = Field(default_factory=_default_capabilities, max_length=2)
    priority: int = Field(default=0, ge=-1000, le=1000)


class CoworkerUpdate(_CoworkerProfile):
    """At least one field; ``null`` is refused."""

    name: str | None = Field(default=None, min_length=1, max_length=200)
    capabilities: list[Capability] | None = Field(default=None, max_length=2)
    priority: int | None = Field(default=None, ge=-1000, le=1000)


class CoworkerKeyCreate(ApiModel):
    name: str = Field(min_length=1, max_length=200)
    expiresAt: datetime | None = None


class CoworkerKeyOut(Schema):
    """Read from ``coworkers.service.IssuedKey``."""

    id: uuid.UUID
    token: str = Field(description="The key itself, shown once.")
    name: str
    expires_at: UtcDateTime | None
    coworker_id: uuid.UUID
    workspace_id: uuid.UUID


class UsageCreate(ApiModel):
    userId: str = Field(min_length=1, max_length=100)
    organizationId: str | None = Field(default=None, max_length=100)
    idempotencyKey: str = Field(min_length=1, max_length=200)
    credits: float = Field(gt=0)
    referenceId: str | None = Field(default=None, max_length=200)


class UsageOut(Schema):
    """Read from a ``CoworkerUsage`` row."""

    id: uuid.UUID
    created_at: UtcDateTime
    updated_at: UtcDateTime
    idempotency_key: str
    coworker_id: uuid.UUID
    user_id: uuid.UUID
    organization_id: uuid.UUID | None
    reference_id: str | None
    transaction_id: uuid.UUID | None
    task_id: uuid.UUID | None
    credits: Credits
