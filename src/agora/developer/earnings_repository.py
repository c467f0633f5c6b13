"""All SQL of a seller's earnings account (docs/billing.md, "Paying sellers"): its balances by
holdback state and agent, and a month's entries. The entries are written by the ledger
(credits/ledger.py); this only reads them."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from sqlalchemy import ColumnElement, and_, case, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from agora.models import Agent, ConnectedAccount, EarningsEntry, Payout
from agora.models.payout import ACTIVE_PAYOUT


def account(user_id: uuid.UUID, organization_id: uuid.UUID | None) -> ColumnElement[bool]:
    """The caller's earnings account: their organization's in its workspace, else their own."""
    if organization_id is not None:
        return EarningsEntry.owner_organization_id == organization_id
    return and_(
        EarningsEntry.owner_user_id == user_id, EarningsEntry.owner_organization_id.is_(None)
    )


async def balances(session: AsyncSession, owner: ColumnElement[bool], now: datetime) -> list[Any]:
    """(agent id, agent name, currency, credits, amount, pending amount, pending credits) per
    agent and currency; pending = not yet past its holdback."""
    pending = EarningsEntry.payable_at > now
    rows = await session.execute(
        select(
            EarningsEntry.agent_id,
            func.max(Agent.name),
            EarningsEntry.currency,
            func.sum(EarningsEntry.credits),
            func.sum(EarningsEntry.amount),
            func.sum(case((pending, EarningsEntry.amount), else_=0)),
            func.sum(case((pending, EarningsEntry.credits), else_=0)),
        )
        .outerjoin(Agent, Agent.id == EarningsEntry.agent_id)
        .where(owner)
        .group_by(EarningsEntry.agent_id, EarningsEntry.currency)
        .order_by(func.max(Agent.name), EarningsEntry.currency)
    )
    return list(rows.all())


async def entries_between(
    session: AsyncSession,
    owner: ColumnElement[bool],
    start: datetime,
    end: datetime,
    limit: int,
) -> list[Any]:
    """The account's entries created in [start, end), oldest first, at most ``limit``:
    (entry, agent name)."""
    rows = await session.execute(
        select(EarningsEntry, Agent.name)
        .outerjoin(Agent, Agent.id == EarningsEntry.agent_id)
        .where(owner, EarningsEntry.created_at >= start, EarningsEntry.created_at < end)
        .order_by(EarningsEntry.created_at, EarningsEntry.id)
        .limit(limit)
    )
    return list(rows.all())


async def payouts(
    session: AsyncSession, key: str, *, period: str | None = None, limit: int = 24
) -> list[Payout]:
    """The account's payouts: of one period (its run's month), oldest first; else newest
    first."""
    query = select(Payout).where(Payout.account_key == key)
    if period is not None:
        query = query.where(Payout.period == period).order_by(Payout.created_at, Payout.id)
    else:
        query = query.order_by(Payout.created_at.desc(), Payout.id.desc())
    return list(await session.scalars(query.limit(limit)))


async def paid_out(session: AsyncSession, key: str) -> dict[str, int]:
    """Currency → minor units paid out (pending and paid payouts, less reversals)."""
    rows = await session.execute(
        select(Payout.currency, func.sum(Payout.amount - Payout.amount_reversed))
        .where(Payout.account_key == key, Payout.status.in_(ACTIVE_PAYOUT))
        .group_by(Payout.currency)
    )
    return {str(currency): int(total or 0) for currency, total in rows.all()}


async def connected_account(session: AsyncSession, key: str) -> ConnectedAccount | None:
    return await session.scalar(select(ConnectedAccount).where(ConnectedAccount.account_key == key))
