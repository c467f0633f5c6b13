from __future__ import annotations

import uuid
from datetime import datetime

from sqlalchemy import CheckConstraint, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from agora.models.base import (
    Base,
    BigInt,
    created_at_column,
    foreign_key,
    id_column,
    updated_at_column,
)


class SpendingCap(Base):
    """An organization's monthly cap on what one member, or one project, may spend (base units).

    ``spent`` is what jobs held in ``period`` (``YYYY-MM``, UTC); a job's hold raises it in the
    same transaction with one conditional UPDATE, so concurrent jobs never pass the cap.
    """

    __tablename__ = "spending_caps"
    __table_args__ = (
        CheckConstraint("(user_id IS NULL) <> (project_id IS NULL)", name="one_subject"),
        CheckConstraint("monthly_limit >= 0", name="limit_not_negative"),
        UniqueConstraint("workspace_id", "user_id", name="uq_spending_caps_member"),
        UniqueConstraint("workspace_id", "project_id", name="uq_spending_caps_project"),
    )

    id: Mapped[uuid.UUID] = id_column()
    workspace_id: Mapped[uuid.UUID] = foreign_key("workspaces.id", "CASCADE", nullable=False)
    user_id: Mapped[uuid.UUID | None] = foreign_key("users.id", "CASCADE")
    project_id: Mapped[uuid.UUID | None] = foreign_key("projects.id", "CASCADE")
    monthly_limit: Mapped[int] = mapped_column(BigInt, nullable=False)
    period: Mapped[str] = mapped_column(String(7), nullable=False)
    spent: Mapped[int] = mapped_column(BigInt, nullable=False, default=0)
    created_at: Mapped[datetime] = created_at_column()
    updated_at: Mapped[datetime] = updated_at_column()
