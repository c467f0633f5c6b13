from __future__ import annotations

import uuid
from datetime import datetime

from sqlalchemy import CheckConstraint, ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column

from agora.models.base import Base, BigInt, created_at_column, id_column, updated_at_column


class Workspace(Base):
    """Every user has one personal workspace; every organization has one workspace.

    The workspace is also the credit account: jobs created in it are paid from its balance
    (``balance`` is what is available; ``held`` is reserved by running jobs), in base units.
    """

    __tablename__ = "workspaces"
    __table_args__ = (
        CheckConstraint("balance >= 0", name="balance_not_negative"),
        CheckConstraint("held >= 0", name="held_not_negative"),
        CheckConstraint(
            "(owner_user_id IS NULL) <> (organization_id IS NULL)", name="one_owner_kind"
        ),
    )

    id: Mapped[uuid.UUID] = id_column()
    name: Mapped[str] = mapped_column(String(200), nullable=False)
    kind: Mapped[str] = mapped_column(String(20), nullable=False)  # personal | organization
    owner_user_id: Mapped[uuid.UUID | None] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), unique=True
    )
    organization_id: Mapped[uuid.UUID | None] = mapped_column(
        ForeignKey("organizations.id", ondelete="CASCADE"), unique=True
    )
    balance: Mapped[int] = mapped_column(BigInt, nullable=False, default=0)
    held: Mapped[int] = mapped_column(BigInt, nullable=False, default=0)
    created_at: Mapped[datetime] = created_at_column()
    updated_at: Mapped[datetime] = updated_at_column()
