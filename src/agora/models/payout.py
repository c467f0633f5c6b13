from __future__ import annotations

import uuid
from datetime import datetime

from sqlalchemy import Boolean, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from agora.models.base import (
    Base,
    BigInt,
    created_at_column,
    foreign_key,
    id_column,
    updated_at_column,
)


class ConnectedAccount(Base):
    """A seller's Stripe Connect Express account (docs/billing.md, "Paying sellers"): one per
    earnings account (``account_key``: ``user:<id>`` or ``organization:<id>``, the owner of the
    earnings entries). Its state is Stripe's, kept from ``account.updated``: details submitted,
    payouts enabled, the requirements currently due (comma-separated) and why it is disabled."""

    __tablename__ = "connected_accounts"
    __table_args__ = (
        UniqueConstraint("account_key", name="uq_connected_accounts_account_key"),
        UniqueConstraint("stripe_account_id", name="uq_connected_accounts_stripe_account_id"),
    )

    id: Mapped[uuid.UUID] = id_column()
    account_key: Mapped[str] = mapped_column(String(60), nullable=False)
    owner_user_id: Mapped[uuid.UUID | None] = foreign_key("users.id", "SET NULL")
    owner_organization_id: Mapped[uuid.UUID | None] = foreign_key("organizations.id", "SET NULL")
    stripe_account_id: Mapped[str] = mapped_column(String(255), nullable=False)
    details_submitted: Mapped[bool] = mapped_column(Boolean, nullable=False, default=False)
    payouts_enabled: Mapped[bool] = mapped_column(Boolean, nullable=False, default=False)
    requirements_due: Mapped[str] = mapped_column(Text, nullable=False, default="")
    disabled_reason: Mapped[str | None] = mapped_column(String(120))
    created_at: Mapped[datetime] = created_at_column()
    updated_at: Mapped[datetime] = updated_at_column()


class Payout(Base):
    """One transfer of a seller's payable earnings to their connected account, for a period
    (``YYYY-MM``) and currency. ``attempt`` counts the tries of that period (a failed one gives
    the money back and the next run tries again with a new idempotency key); at most one row per
    (account, period, currency, attempt), which is what makes concurrent runs transfer once.

    status: pending (claimed, Stripe not yet answered) | paid (the transfer exists) | failed
    (Stripe refused it: nothing left) | reversed (``transfer.reversed``: the money came back).
    A pending or paid payout counts against the earnings balance (less ``amount_reversed``, what a
    partial reversal gave back); failed and reversed do not.
    """

    __tablename__ = "payouts"
    __table_args__ = (
        UniqueConstraint(
            "account_key", "period", "currency", "attempt", name="uq_payouts_period_attempt"
        ),
    )

    id: Mapped[uuid.UUID] = id_column()
    account_key: Mapped[str] = mapped_column(String(60), nullable=False)
    owner_user_id: Mapped[uuid.UUID | None] = foreign_key("users.id", "SET NULL")
    owner_organization_id: Mapped[uuid.UUID | None] = foreign_key("organizations.id", "SET NULL")
    period: Mapped[str] = mapped_column(String(7), nullable=False)
    currency: Mapped[str] = mapped_column(String(3), nullable=False)
    attempt: Mapped[int] = mapped_column(Integer, nullable=False)
    amount: Mapped[int] = mapped_column(BigInt, nullable=False)
    amount_reversed: Mapped[int] = mapped_column(BigInt, nullable=False, default=0)
    status: Mapped[str] = mapped_column(String(20), nullable=False)
    stripe_account_id: Mapped[str] = mapped_column(String(255), nullable=False)
    stripe_transfer_id: Mapped[str | None] = mapped_column(String(255), index=True)
    failure: Mapped[str | None] = mapped_column(String(500))
    created_at: Mapped[datetime] = created_at_column()
    updated_at: Mapped[datetime] = updated_at_column()


def account_key(user_id: uuid.UUID | None, organization_id: uuid.UUID | None) -> str:
    """The earnings account's key: its organization's when one owns it, else its user's."""
    if organization_id is not None:
        return f"organization:{organization_id}"
    return f"user:{user_id}"


# A payout that counts against the balance (its amount less what was reversed)
ACTIVE_PAYOUT = ("pending", "paid")
