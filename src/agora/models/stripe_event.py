from __future__ import annotations

from datetime import datetime

from sqlalchemy import String
from sqlalchemy.orm import Mapped, mapped_column

from agora.models.base import Base, created_at_column


class StripeEvent(Base):
    """A Stripe webhook event that was verified and applied: its id is the key, so a replay (or
    a second concurrent delivery) of the same event finds it and changes nothing."""

    __tablename__ = "stripe_events"

    id: Mapped[str] = mapped_column(String(255), primary_key=True)
    type: Mapped[str] = mapped_column(String(100), nullable=False)
    created_at: Mapped[datetime] = created_at_column()
