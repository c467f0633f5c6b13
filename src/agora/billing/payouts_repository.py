"""All SQL of paying sellers (docs/billing.md, "Paying sellers"): connected accounts, payouts,
and the payable balance of each earnings account (its entries past the holdback, less what
pending and paid payouts took)."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from agora.kit.db import add_unless_taken
from agora.models import ConnectedAccount, EarningsEntry, Payout
from agora.models.payout import ACTIVE_PAYOUT, account_key


async def connected_account(session: AsyncSession, key: str) -> ConnectedAccount | None:
    return await session.scalar(select(ConnectedAccount).where(ConnectedAccount.account_key == key))


async def connected_by_stripe_id(
    session: AsyncSession, stripe_account_id: str
) -> ConnectedAccount | None:
    return await session.scalar(
        select(ConnectedAccount)
        .where(ConnectedAccount.stripe_account_id == stripe_account_id)
        .with_for_update()
    )


async def add_connected_account(session: AsyncSession, row: ConnectedAccount) -> bool:
    """Insert; False when the account already has one (a concurrent connect)."""
    return await add_unless_taken(session, row)


async def payable_balances(session: AsyncSession, now: datetime) -> dict[tuple[str, str], int]:
    """(account key, currency) → payable: earnings past the holdback less active payouts."""
    out: dict[tuple[str, str], int] = {}
    earned = await session.execute(
        select(
            EarningsEntry.owner_user_id,
            EarningsEntry.owner_organization_id,
            EarningsEntry.currency,
            func.sum(EarningsEntry.amount),
        )
        .where(EarningsEntry.payable_at <= now)
        .group_by(
            EarningsEntry.owner_user_id, EarningsEntry.owner_organization_id, EarningsEntry.currency
        )
    )
    for user_id, organization_id, currency, amount in earned.all():
        if user_id is None and organization_id is None:
            continue  # the owner was deleted: nobody to pay
        owner = (account_key(user_id, organization_id), str(currency))
        out[owner] = out.get(owner, 0) + int(amount or 0)
    for key, paid_currency, paid in await _paid_out(session, None):
        out[(key, paid_currency)] = out.get((key, paid_currency), 0) - paid
    return out


async def _paid_out(session: AsyncSession, key: str | None) -> list[tuple[str, str, int]]:
    query = (
        select(
            Payout.account_key,
            Payout.currency,
            func.sum(Payout.amount - Payout.amount_reversed),
        )
        .where(Payout.status.in_(ACTIVE_PAYOUT))
        .group_by(Payout.account_key, Payout.currency)
    )
    if key is not None:
        query = query.where(Payout.account_key == key)
    return [(str(k), str(c), int(s or 0)) for k, c, s in (await session.execute(query)).all()]


async def payable_of(session: AsyncSession, key: str, currency: str, now: datetime) -> int:
    """One account's payable balance in ``currency`` (as ``payable_balances``)."""
    user_id, organization_id = owner_of(key)
    owner = (
        EarningsEntry.owner_organization_id == organization_id
        if organization_id is not None
        else (EarningsEntry.owner_user_id == user_id)
        & EarningsEntry.owner_organization_id.is_(None)
    )
    earned = await session.scalar(
        select(func.sum(EarningsEntry.amount)).where(
            owner, EarningsEntry.currency == currency, EarningsEntry.payable_at <= now
        )
    )
    paid = sum(s for _k, c, s in await _paid_out(session, key) if c == currency)
    return int(earned or 0) - paid


def owner_of(key: str) -> tuple[uuid.UUID | None, uuid.UUID | None]:
    """An account key's (user id, organization id)."""
    kind, _, value = key.partition(":")
    found = uuid.UUID(value)
    return (None, found) if kind == "organization" else (found, None)


async def connected_accounts(session: AsyncSession, keys: list[str]) -> dict[str, Any]:
    if not keys:
        return {}
    rows = await session.scalars(
        select(ConnectedAccount).where(ConnectedAccount.account_key.in_(keys))
    )
    return {row.account_key: row for row in rows}


async def period_payouts(
    session: AsyncSession, key: str, period: str, currency: str
) -> list[Payout]:
    rows = await session.scalars(
        select(Payout)
        .where(Payout.account_key == key, Payout.period == period, Payout.currency == currency)
        .order_by(Payout.attempt)
    )
    return list(rows)


async def add_payout(session: AsyncSession, row: Payout) -> bool:
    """Insert a claimed payout; False when a concurrent run claimed that attempt first (the
    unique (account, period, currency, attempt))."""
    return await add_unless_taken(session, row)


async def unsent_payouts(session: AsyncSession, limit: int) -> list[Payout]:
    """Pending payouts Stripe has not confirmed (a run stopped, or Stripe did not answer)."""
    rows = await session.scalars(
        select(Payout)
        .where(Payout.status == "pending", Payout.stripe_transfer_id.is_(None))
        .order_by(Payout.created_at)
        .limit(limit)
    )
    return list(rows)


async def payout_for_update(session: AsyncSession, payout_id: uuid.UUID) -> Payout | None:
    return await session.scalar(select(Payout).where(Payout.id == payout_id).with_for_update())


async def payout_by_transfer(session: AsyncSession, transfer_id: str) -> Payout | None:
    return await session.scalar(
        select(Payout).where(Payout.stripe_transfer_id == transfer_id).with_for_update()
    )


async def list_payouts(session: AsyncSession, status: str | None, limit: int) -> list[Payout]:
    """Every payout, newest first (the operator's console)."""
    query = select(Payout).order_by(Payout.created_at.desc(), Payout.id.desc()).limit(limit)
    if status:
        query = query.where(Payout.status == status)
    return list(await session.scalars(query))


async def payouts_to_check(session: AsyncSession) -> list[Payout]:
    """Payouts with a transfer, or pending without one (reconciliation)."""
    rows = await session.scalars(
        select(Payout)
        .where(Payout.status.in_(("pending", "paid", "reversed")))
        .order_by(Payout.created_at)
    )
    return list(rows)
