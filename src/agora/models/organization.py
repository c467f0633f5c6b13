from __future__ import annotations

import uuid
from datetime import datetime

from sqlalchemy import String
from sqlalchemy.orm import Mapped, mapped_column

from agora.models.base import (
    Base,
    Timestamp,
    created_at_column,
    foreign_key,
    id_column,
    updated_at_column,
)


class Organization(Base):
    __tablename__ = "organizations"

    id: Mapped[uuid.UUID] = id_column()
    slug: Mapped[str] = mapped_column(String(100), unique=True, nullable=False)
    name: Mapped[str] = mapped_column(String(200), nullable=False)
    logo: Mapped[str | None] = mapped_column(String(2000))
    # An operator suspended the organization (console/): its workspace refuses every key,
    # session and token (403); its members keep their personal workspaces.
    suspended_at: Mapped[datetime | None] = mapped_column(Timestamp)
    suspension_reason: Mapped[str | None] = mapped_column(String(500))
    # Members whose address is at ``sign_in_domain`` sign in only through ``sign_in_provider``
    # (docs/accounts.md, "Identity providers"); both null: no rule.
    sign_in_domain: Mapped[str | None] = mapped_column(String(253))
    sign_in_provider: Mapped[str | None] = mapped_column(String(20))
    created_at: Mapped[datetime] = created_at_column()
    updated_at: Mapped[datetime] = updated_at_column()


class OrganizationMember(Base):
    __tablename__ = "organization_members"

    organization_id: Mapped[uuid.UUID] = foreign_key(
        "organizations.id", "CASCADE", primary_key=True
    )
    user_id: Mapped[uuid.UUID] = foreign_key("users.id", "CASCADE", primary_key=True, index=True)
    role: Mapped[str] = mapped_column(String(20), nullable=False, default="member")
    created_at: Mapped[datetime] = created_at_column()
