from __future__ import annotations

import uuid
from datetime import datetime

from sqlalchemy import Index, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from agora.models.base import Base, BigInt, Timestamp, created_at_column, foreign_key, id_column


class EarningsEntry(Base):
    """One movement on a seller's earnings account (append-only; docs/billing.md, "Paying
    sellers"). The account is the listing's owner: its user, or its organization.

    kind: earning (a credit-priced job captured: the seller's share, its price without the
    marketplace fee) | reversal (that job refunded after the capture: the same amounts, negated).
    ``credits`` and ``fee`` are base units; ``amount`` is ``credits`` in the payout currency's
    minor units at ``credit_value`` (minor units per whole credit, the rate in force when the
    job was captured; a reversal keeps its earning's rate). ``payable_at``: the end of the
    holdback (a reversal: its earning's, or at once once that passed).
    """

    __tablename__ = "earnings_entries"
    __table_args__ = (
        UniqueConstraint("job_id", "kind", name="uq_earnings_entries_job_kind"),
        Index("ix_earnings_owner_user", "owner_user_id", "created_at"),
        Index("ix_earnings_owner_organization", "owner_organization_id", "created_at"),
    )

    id: Mapped[uuid.UUID] = id_column()
    owner_user_id: Mapped[uuid.UUID | None] = foreign_key("users.id", "SET NULL")
    owner_organization_id: Mapped[uuid.UUID | None] = foreign_key("organizations.id", "SET NULL")
    agent_id: Mapped[uuid.UUID | None] = foreign_key("agents.id", "SET NULL")
    job_id: Mapped[uuid.UUID | None] = foreign_key("jobs.id", "SET NULL")
    kind: Mapped[str] = mapped_column(String(20), nullable=False)
    credits: Mapped[int] = mapped_column(BigInt, nullable=False)
    fee: Mapped[int] = mapped_column(BigInt, nullable=False, default=0)
    currency: Mapped[str] = mapped_column(String(3), nullable=False)
    credit_value: Mapped[int] = mapped_column(BigInt, nullable=False)
    amount: Mapped[int] = mapped_column(BigInt, nullable=False)
    payable_at: Mapped[datetime] = mapped_column(Timestamp, nullable=False)
    created_at: Mapped[datetime] = created_at_column()
