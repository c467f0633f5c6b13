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
    id_column,
    updated_at_column,
)


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
    __table_args__ = (Index("ix_agents_listing", "is_shown", "status", "id"),)

    id: Mapped[uuid.UUID] = id_column()
    name: Mapped[str] = mapped_column(String(200), nullable=False)
    description: Mapped[str] = mapped_column(Text, nullable=False, default="")
    base_url: Mapped[str] = mapped_column(String(2000), nullable=False)
    status: Mapped[str] = mapped_column(String(20), nullable=False, default="PENDING")
    is_shown: Mapped[bool] = mapped_column(Boolean, nullable=False, default=True)
    pricing_type: Mapped[str] = mapped_column(String(20), nullable=False, default="FREE")
    price: Mapped[int] = mapped_column(BigInt, nullable=False, default=0)
    fee: Mapped[int] = mapped_column(BigInt, nullable=False, default=0)
    tags: Mapped[list[Any]] = mapped_column(JSONType, nullable=False, default=list)
    input_schema: Mapped[dict[str, Any] | None] = mapped_column(JSONType)
    agent_identifier: Mapped[str | None] = mapped_column(String(500))
    job_count: Mapped[int] = mapped_column(Integer, nullable=False, default=0)
    verified_at: Mapped[datetime | None] = mapped_column(Timestamp)
    verification_expires_at: Mapped[datetime | None] = mapped_column(Timestamp)
    revoked_at: Mapped[datetime | None] = mapped_column(Timestamp)
    last_checked_at: Mapped[datetime | None] = mapped_column(Timestamp)
    consecutive_failures: Mapped[int] = mapped_column(Integer, nullable=False, default=0)
    created_at: Mapped[datetime] = created_at_column()
    updated_at: Mapped[datetime] = updated_at_column()
