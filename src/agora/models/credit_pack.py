from __future__ import annotations

import uuid
from datetime import datetime

from sqlalchemy import Boolean, CheckConstraint, String
from sqlalchemy.orm import Mapped, mapped_column

from agora.models.base import Base, BigInt, created_at_column, id_column, updated_at_column


class CreditPack(Base):
    """A pack of credits the operator sells (docs/billing.md): ``credits`` in base units for
    ``price`` in the currency's minor units (cents). Archived packs stay for old purchases."""

    __tablename__ = "credit_packs"
    __table_args__ = (
        CheckConstraint("credits > 0", name="credits_positive"),
        CheckConstraint("price > 0", name="price_positive"),
    )

    id: Mapped[uuid.UUID] = id_column()
    name: Mapped[str] = mapped_column(String(100), nullable=False)
    credits: Mapped[int] = mapped_column(BigInt, nullable=False)
    price: Mapped[int] = mapped_column(BigInt, nullable=False)
    currency: Mapped[str] = mapped_column(String(3), nullable=False)
    active: Mapped[bool] = mapped_column(Boolean, nullable=False, default=True)
    created_at: Mapped[datetime] = created_at_column()
    updated_at: Mapped[datetime] = updated_at_column()
