from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from sqlalchemy import Index, Integer, String, Text, UniqueConstraint
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


class Coworker(Base):
    """An AI worker with a lasting identity that takes tasks (docs/coworkers.md).

    Registered by a user (``owner_user_id``), whitelisted by an admin (``whitelisted_at``),
    archived by its owner or an admin (``archived_at``). It acts with coworker API keys.
    """

    __tablename__ = "coworkers"
    __table_args__ = (Index("ix_coworkers_owner", "owner_user_id"),)

    id: Mapped[uuid.UUID] = id_column()
    owner_user_id: Mapped[uuid.UUID] = foreign_key("users.id", "CASCADE", nullable=False)
    slug: Mapped[str] = mapped_column(String(120), unique=True, nullable=False)
    name: Mapped[str] = mapped_column(String(200), nullable=False)
    caption: Mapped[str | None] = mapped_column(String(500))
    company: Mapped[str | None] = mapped_column(String(200))
    company_logo: Mapped[str | None] = mapped_column(String(2000))
    url: Mapped[str | None] = mapped_column(String(2000))
    base_url: Mapped[str | None] = mapped_column(String(2000))
    email: Mapped[str | None] = mapped_column(String(320))
    description: Mapped[str | None] = mapped_column(Text)
    image: Mapped[str | None] = mapped_column(String(2000))
    # "metadata" is reserved on declarative classes: the attribute is ``meta``.
    meta: Mapped[dict[str, Any] | None] = mapped_column("metadata", JSONType)
    capabilities: Mapped[list[Any]] = mapped_column(JSONType, nullable=False, default=list)
    priority: Mapped[int] = mapped_column(Integer, nullable=False, default=0)
    price: Mapped[int] = mapped_column(BigInt, nullable=False, default=0)
    estimated_duration: Mapped[int | None] = mapped_column(Integer)
    whitelisted_at: Mapped[datetime | None] = mapped_column(Timestamp)
    archived_at: Mapped[datetime | None] = mapped_column(Timestamp)
    created_at: Mapped[datetime] = created_at_column()
    updated_at: Mapped[datetime] = updated_at_column()


class CoworkerWorkspace(Base):
    """A workspace a coworker was given access to (its keys are bound to one of these)."""

    __tablename__ = "coworker_workspaces"

    coworker_id: Mapped[uuid.UUID] = foreign_key("coworkers.id", "CASCADE", primary_key=True)
    workspace_id: Mapped[uuid.UUID] = foreign_key(
        "workspaces.id", "CASCADE", primary_key=True, index=True
    )
    created_at: Mapped[datetime] = created_at_column()


class CoworkerUsage(Base):
    """Credits a coworker charged a user, once per idempotency key."""

    __tablename__ = "coworker_usage"
    __table_args__ = (
        UniqueConstraint("coworker_id", "idempotency_key", name="uq_coworker_usage_key"),
        Index("ix_coworker_usage_task", "task_id"),
    )

    id: Mapped[uuid.UUID] = id_column()
    coworker_id: Mapped[uuid.UUID] = foreign_key("coworkers.id", "CASCADE", nullable=False)
    user_id: Mapped[uuid.UUID] = foreign_key("users.id", "CASCADE", nullable=False)
    organization_id: Mapped[uuid.UUID | None] = foreign_key("organizations.id", "SET NULL")
    workspace_id: Mapped[uuid.UUID] = foreign_key("workspaces.id", "CASCADE", nullable=False)
    task_id: Mapped[uuid.UUID | None] = foreign_key("tasks.id", "SET NULL")
    idempotency_key: Mapped[str] = mapped_column(String(200), nullable=False)
    reference_id: Mapped[str | None] = mapped_column(String(200))
    credits: Mapped[int] = mapped_column(BigInt, nullable=False)
    transaction_id: Mapped[uuid.UUID | None] = foreign_key("ledger_entries.id", "SET NULL")
    request_hash: Mapped[str] = mapped_column(String(64), nullable=False)
    created_at: Mapped[datetime] = created_at_column()
    updated_at: Mapped[datetime] = updated_at_column()
