from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from sqlalchemy import Boolean, Column, ForeignKey, Index, Integer, String, Table, Text
from sqlalchemy.orm import Mapped, mapped_column

from agora.models.base import (
    Base,
    BigInt,
    JSONType,
    Timestamp,
    created_at_column,
    foreign_key,
    id_column,
    updated_at_column,
)
from agora.models.statuses import AgentProtocol, AgentSource, AgentStatus, PricingType

# The rating sort's Bayesian average (docs/agents.md, "Sorting"): every agent starts as
# RATING_PRIOR_WEIGHT ratings of RATING_PRIOR_MEAN, so one 5-star review does not beat fifty 4.8s.
RATING_PRIOR_MEAN = 3.0
RATING_PRIOR_WEIGHT = 5


class Category(Base):
    __tablename__ = "categories"

    id: Mapped[uuid.UUID] = id_column()
    slug: Mapped[str] = mapped_column(String(100), unique=True, nullable=False)
    name: Mapped[str] = mapped_column(String(200), nullable=False)
    description: Mapped[str] = mapped_column(Text, nullable=False, default="")
    created_at: Mapped[datetime] = created_at_column()


agent_categories = Table(
    "agent_categories",
    Base.metadata,
    Column("agent_id", ForeignKey("agents.id", ondelete="CASCADE"), primary_key=True),
    Column(
        "category_id", ForeignKey("categories.id", ondelete="CASCADE"), primary_key=True, index=True
    ),
)


class Agent(Base):
    """A catalogue entry for an external MIP-003 service.

    Prices are integers in credit base units; ``fee`` is the marketplace fee included in the
    price the user pays (reported as ``includedFee``).
    """

    __tablename__ = "agents"
    __table_args__ = (
        Index("ix_agents_listing", "is_shown", "status", "id"),
        # Registry imports upsert by agentIdentifier; NULLs (hand-registered agents) may repeat.
        Index("ix_agents_agent_identifier", "agent_identifier", unique=True),
        Index("ix_agents_owner_user", "owner_user_id"),
        Index("ix_agents_owner_organization", "owner_organization_id"),
        Index("ix_agents_review", "review_state", "id"),
    )

    id: Mapped[uuid.UUID] = id_column()
    name: Mapped[str] = mapped_column(String(200), nullable=False)
    description: Mapped[str] = mapped_column(Text, nullable=False, default="")
    base_url: Mapped[str] = mapped_column(String(2000), nullable=False)
    status: Mapped[str] = mapped_column(String(20), nullable=False, default=AgentStatus.PENDING)
    is_shown: Mapped[bool] = mapped_column(Boolean, nullable=False, default=True)
    pricing_type: Mapped[str] = mapped_column(String(20), nullable=False, default=PricingType.FREE)
    price: Mapped[int] = mapped_column(BigInt, nullable=False, default=0)
    fee: Mapped[int] = mapped_column(BigInt, nullable=False, default=0)
    tags: Mapped[list[Any]] = mapped_column(JSONType, nullable=False, default=list)
    input_schema: Mapped[dict[str, Any] | None] = mapped_column(JSONType)
    agent_identifier: Mapped[str | None] = mapped_column(String(500))
    job_count: Mapped[int] = mapped_column(Integer, nullable=False, default=0)
    # Ratings' aggregate (ratings/service.py): changed by one UPDATE in the rating's own
    # transaction, so listings read it with the row (no per-page query) and it stays exact.
    rating_count: Mapped[int] = mapped_column(Integer, nullable=False, default=0)
    rating_sum: Mapped[int] = mapped_column(Integer, nullable=False, default=0)
    rating_1: Mapped[int] = mapped_column(Integer, nullable=False, default=0)
    rating_2: Mapped[int] = mapped_column(Integer, nullable=False, default=0)
    rating_3: Mapped[int] = mapped_column(Integer, nullable=False, default=0)
    rating_4: Mapped[int] = mapped_column(Integer, nullable=False, default=0)
    rating_5: Mapped[int] = mapped_column(Integer, nullable=False, default=0)
    # Chosen by the operator (admin API): `featured=true`, `sort=featured` (the gallery's order).
    featured_at: Mapped[datetime | None] = mapped_column(Timestamp)
    verified_at: Mapped[datetime | None] = mapped_column(Timestamp)
    verification_expires_at: Mapped[datetime | None] = mapped_column(Timestamp)
    revoked_at: Mapped[datetime | None] = mapped_column(Timestamp)
    last_checked_at: Mapped[datetime | None] = mapped_column(Timestamp)
    consecutive_failures: Mapped[int] = mapped_column(Integer, nullable=False, default=0)
    # The latest approved version (agent_versions.number; NULL: none recorded yet) and the
    # developer's changelog for the change waiting for review (docs/developer.md, "Versions").
    current_version: Mapped[int | None] = mapped_column(Integer)
    pending_changelog: Mapped[str | None] = mapped_column(Text)
    # Developer listing (developer/): who submitted it, what they submitted, the review.
    # ``listing`` holds the submitted text (name, description, tags, image, exampleOutputs,
    # author, legal); ``admin_override`` the fields an admin fixed. The published columns above
    # (name, description, tags, image, is_shown) are derived from both (developer.service.publish).
    source: Mapped[str] = mapped_column(String(20), nullable=False, default=AgentSource.OPERATOR)
    owner_user_id: Mapped[uuid.UUID | None] = foreign_key("users.id", "SET NULL")
    owner_organization_id: Mapped[uuid.UUID | None] = foreign_key("organizations.id", "SET NULL")
    review_state: Mapped[str | None] = mapped_column(String(20))
    review_note: Mapped[str | None] = mapped_column(Text)
    reviewed_at: Mapped[datetime | None] = mapped_column(Timestamp)
    withdrawn_at: Mapped[datetime | None] = mapped_column(Timestamp)
    image: Mapped[str | None] = mapped_column(String(2000))
    listing: Mapped[dict[str, Any]] = mapped_column(JSONType, nullable=False, default=dict)
    admin_override: Mapped[dict[str, Any]] = mapped_column(JSONType, nullable=False, default=dict)
    # How Agora talks to the agent (docs/a2a.md): MIP-003 at ``base_url``, or A2A, where
    # ``base_url`` is the Agent Card's URL, ``a2a_card`` the card as read (JSON) and
    # ``a2a_credential`` the developer's credential for it, sealed (a2a/credentials.py).
    protocol: Mapped[str] = mapped_column(
        String(20), nullable=False, default=AgentProtocol.MIP003, server_default="mip003"
    )
    a2a_card: Mapped[dict[str, Any] | None] = mapped_column(JSONType)
    a2a_credential: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[datetime] = created_at_column()
    updated_at: Mapped[datetime] = updated_at_column()
