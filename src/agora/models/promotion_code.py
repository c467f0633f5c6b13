from __future__ import annotations

import uuid
from datetime import datetime

from sqlalchemy import Boolean, CheckConstraint, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from agora.models.base import (
    Base,
    BigInt,
    Timestamp,
    created_at_column,
    foreign_key,
    id_column,
)


class PromotionCode(Base):
    """A code the operator gives buyers (docs/billing.md, "Promotion codes"): bonus credits
    (base units) on a pack, or a percentage off its price. ``uses`` counts the checkouts that
    took it, raised only by a conditional UPDATE below ``max_uses`` (null: no limit in total);
    ``per_person``: at most this many uses by one person (null: no limit)."""

    __tablename__ = "promotion_codes"
    __table_args__ = (
        CheckConstraint("uses >= 0", name="uses_not_negative"),
        CheckConstraint("max_uses IS NULL OR uses <= max_uses", name="uses_within_limit"),
    )

    id: Mapped[uuid.UUID] = id_column()
    code: Mapped[str] = mapped_column(String(40), nullable=False, unique=True)
    bonus_credits: Mapped[int] = mapped_column(BigInt, nullable=False, default=0)
    percent_off: Mapped[int] = mapped_column(Integer, nullable=False, default=0)
    max_uses: Mapped[int | None] = mapped_column(Integer)
    per_person: Mapped[int | None] = mapped_column(Integer)
    uses: Mapped[int] = mapped_column(Integer, nullable=False, default=0)
    expires_at: Mapped[datetime | None] = mapped_column(Timestamp)
    active: Mapped[bool] = mapped_column(Boolean, nullable=False, default=True)
    created_at: Mapped[datetime] = created_at_column()


class PromotionRedemption(Base):
    """One use of a code by a person at checkout. ``seq`` is the person's nth use of the code:
    unique per (code, user), from 1 to the code's ``per_person``, so two concurrent checkouts
    cannot both take a person's last use."""

    __tablename__ = "promotion_redemptions"
    __table_args__ = (
        UniqueConstraint("code_id", "user_id", "seq", name="uq_promotion_redemptions_seq"),
    )

    id: Mapped[uuid.UUID] = id_column()
    code_id: Mapped[uuid.UUID] = foreign_key("promotion_codes.id", "CASCADE", nullable=False)
    user_id: Mapped[uuid.UUID] = foreign_key("users.id", "CASCADE", nullable=False)
    seq: Mapped[int] = mapped_column(Integer, nullable=False)
    purchase_id: Mapped[uuid.UUID | None] = foreign_key("credit_purchases.id", "SET NULL")
    created_at: Mapped[datetime] = created_at_column()
