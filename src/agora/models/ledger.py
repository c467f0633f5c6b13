from __future__ import annotations

import uuid
from datetime import datetime

from sqlalchemy import Index, String
from sqlalchemy.orm import Mapped, mapped_column

from agora.models.base import Base, BigInt, created_at_column, foreign_key, id_column


class LedgerEntry(Base):
    """One movement of credits on a workspace account (append-only).

    kind: grant | hold | capture | refund | usage (a coworker's charge) | purchase | clawback |
    settle (billing: docs/billing.md). ``amount`` is the
    change to the available balance
    (a hold is negative, a refund positive, a capture zero: it turns held credits into spent ones);
    ``held_change`` is the change to the held amount.
    """

    __tablename__ = "ledger_entries"
    __table_args__ = (Index("ix_ledger_workspace_created", "workspace_id", "created_at", "id"),)

    id: Mapped[uuid.UUID] = id_column()
    workspace_id: Mapped[uuid.UUID] = foreign_key("workspaces.id", "CASCADE", nullable=False)
    job_id: Mapped[uuid.UUID | None] = foreign_key("jobs.id", "SET NULL", index=True)
    user_id: Mapped[uuid.UUID | None] = foreign_key("users.id", "SET NULL")
    kind: Mapped[str] = mapped_column(String(20), nullable=False)
    amount: Mapped[int] = mapped_column(BigInt, nullable=False)
    held_change: Mapped[int] = mapped_column(BigInt, nullable=False, default=0)
    balance_after: Mapped[int] = mapped_column(BigInt, nullable=False)
    memo: Mapped[str] = mapped_column(String(500), nullable=False, default="")
    created_at: Mapped[datetime] = created_at_column()
