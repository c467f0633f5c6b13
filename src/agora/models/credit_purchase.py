from __future__ import annotations

import uuid
from datetime import datetime

from sqlalchemy import Index, String
from sqlalchemy.orm import Mapped, mapped_column

from agora.models.base import (
    Base,
    BigInt,
    Timestamp,
    created_at_column,
    foreign_key,
    id_column,
    updated_at_column,
)


class CreditPurchase(Base):
    """One purchase of credits with Stripe: a PaymentIntent for a workspace (docs/billing.md).

    status: pending → paid (the verified ``payment_intent.succeeded`` webhook granted the credits)
    | failed; a paid purchase becomes refunded | partially_refunded | disputed. ``price`` and
    ``refunded`` are the currency's minor units; ``credits``, ``clawed_back`` (taken back from the
    balance) and ``shortfall`` (what could not be taken back: it was already spent) are base units.
    """

    __tablename__ = "credit_purchases"
    __table_args__ = (Index("ix_credit_purchases_workspace", "workspace_id", "created_at", "id"),)

    id: Mapped[uuid.UUID] = id_column()
    workspace_id: Mapped[uuid.UUID] = foreign_key("workspaces.id", "CASCADE", nullable=False)
    user_id: Mapped[uuid.UUID | None] = foreign_key("users.id", "SET NULL")
    pack_id: Mapped[uuid.UUID | None] = foreign_key("credit_packs.id", "SET NULL")
    credits: Mapped[int] = mapped_column(BigInt, nullable=False)
    price: Mapped[int] = mapped_column(BigInt, nullable=False)
    currency: Mapped[str] = mapped_column(String(3), nullable=False)
    status: Mapped[str] = mapped_column(String(20), nullable=False, default="pending")
    stripe_payment_intent_id: Mapped[str] = mapped_column(String(255), nullable=False, unique=True)
    stripe_customer_id: Mapped[str] = mapped_column(String(255), nullable=False)
    stripe_charge_id: Mapped[str | None] = mapped_column(String(255), index=True)
    receipt_url: Mapped[str | None] = mapped_column(String(2000))
    failure_message: Mapped[str | None] = mapped_column(String(500))
    refunded: Mapped[int] = mapped_column(BigInt, nullable=False, default=0)
    clawed_back: Mapped[int] = mapped_column(BigInt, nullable=False, default=0)
    shortfall: Mapped[int] = mapped_column(BigInt, nullable=False, default=0)
    # A promotion code taken at checkout (docs/billing.md, "Promotion codes"): the bonus credits
    # granted with the purchase (a ``bonus`` ledger entry) and what was taken off the pack's price.
    promotion_code_id: Mapped[uuid.UUID | None] = foreign_key("promotion_codes.id", "SET NULL")
    bonus_credits: Mapped[int] = mapped_column(BigInt, nullable=False, default=0)
    discount: Mapped[int] = mapped_column(BigInt, nullable=False, default=0)
    paid_at: Mapped[datetime | None] = mapped_column(Timestamp)
    created_at: Mapped[datetime] = created_at_column()
    updated_at: Mapped[datetime] = updated_at_column()
