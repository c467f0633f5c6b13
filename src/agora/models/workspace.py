from __future__ import annotations

import uuid
from datetime import datetime

from sqlalchemy import Boolean, CheckConstraint, String
from sqlalchemy.orm import Mapped, mapped_column

from agora.models.base import (
    Base,
    BigInt,
    created_at_column,
    foreign_key,
    id_column,
    updated_at_column,
)


class Workspace(Base):
    """Every user has one personal workspace; every organization has one workspace.

    The workspace is also the credit account: jobs created in it are paid from its balance
    (``balance`` is what is available; ``held`` is reserved by running jobs), in base units.
    """

    __tablename__ = "workspaces"
    __table_args__ = (
        CheckConstraint("balance >= 0", name="balance_not_negative"),
        CheckConstraint("held >= 0", name="held_not_negative"),
        CheckConstraint("shortfall >= 0", name="shortfall_not_negative"),
        CheckConstraint(
            "(owner_user_id IS NULL) <> (organization_id IS NULL)", name="one_owner_kind"
        ),
    )

    id: Mapped[uuid.UUID] = id_column()
    name: Mapped[str] = mapped_column(String(200), nullable=False)
    kind: Mapped[str] = mapped_column(String(20), nullable=False)  # personal | organization
    owner_user_id: Mapped[uuid.UUID | None] = foreign_key("users.id", "CASCADE", unique=True)
    organization_id: Mapped[uuid.UUID | None] = foreign_key(
        "organizations.id", "CASCADE", unique=True
    )
    balance: Mapped[int] = mapped_column(BigInt, nullable=False, default=0)
    held: Mapped[int] = mapped_column(BigInt, nullable=False, default=0)
    # Billing (docs/billing.md): credits a refund or dispute could not take back because they
    # were already spent; while above zero the workspace starts no paid job.
    shortfall: Mapped[int] = mapped_column(BigInt, nullable=False, default=0)
    stripe_customer_id: Mapped[str | None] = mapped_column(String(255))
    # Low-balance warning: below this (base units; None = the price of the last job) the web app
    # shows a banner and one mail goes to the payer per crossing (``low_balance_warned``).
    low_balance_threshold: Mapped[int | None] = mapped_column(BigInt)
    low_balance_warned: Mapped[bool] = mapped_column(Boolean, nullable=False, default=False)
    created_at: Mapped[datetime] = created_at_column()
    updated_at: Mapped[datetime] = updated_at_column()
