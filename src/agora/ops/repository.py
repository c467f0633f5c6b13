"""SQL for operational gauges (read at scrape time) and housekeeping's deletes."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, datetime
from typing import Any

from sqlalchemy import delete, func, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from agora.models import (
    AccountToken,
    AgentDailyCompletions,
    BrowserSession,
    Job,
    LedgerEntry,
    OAuthDeviceCode,
    OAuthToken,
    Workspace,
)


async def jobs_by_status(session: AsyncSession) -> dict[str, int]:
    rows = await session.execute(select(Job.status, func.count()).group_by(Job.status))
    return {status: int(count) for status, count in rows.all()}


async def ledger_totals(session: AsyncSession) -> dict[str, int]:
    rows = await session.execute(
        select(LedgerEntry.kind, func.coalesce(func.sum(LedgerEntry.amount), 0)).group_by(
            LedgerEntry.kind
        )
    )
    totals = {kind: int(total) for kind, total in rows.all()}
    balances = (
        await session.execute(
            select(
                func.coalesce(func.sum(Workspace.balance), 0),
                func.coalesce(func.sum(Workspace.held), 0),
            )
        )
    ).one()
    totals["balance"] = int(balances[0])
    totals["held"] = int(balances[1])
    return totals


# ---- housekeeping (ops/worker.py): deletes of what no reader needs any more ----------


SWEEPS: dict[str, tuple[Any, Callable[[datetime], Any]]] = {
    # name → (table's model, the condition of a row to delete given the cut-off)
    "browser_sessions": (
        BrowserSession,
        lambda before: or_(BrowserSession.expires_at < before, BrowserSession.revoked_at < before),
    ),
    "account_tokens": (AccountToken, lambda before: AccountToken.expires_at < before),
    "oauth_tokens": (OAuthToken, lambda before: OAuthToken.expires_at < before),
    "oauth_device_codes": (OAuthDeviceCode, lambda before: OAuthDeviceCode.expires_at < before),
}


async def sweep(session: AsyncSession, name: str, before: datetime, limit: int) -> int:
    """Delete at most ``limit`` rows of the sweep ``name`` older than ``before``; how many."""
    model, condition = SWEEPS[name]
    doomed = select(model.id).where(condition(before)).limit(limit)
    result = await session.execute(
        delete(model).where(model.id.in_(doomed)).execution_options(synchronize_session=False)
    )
    return int(getattr(result, "rowcount", 0) or 0)


async def sweep_daily_completions(session: AsyncSession, before: date) -> int:
    """The popularity counters of days before ``before`` (at most one day's rows per agent)."""
    result = await session.execute(
        delete(AgentDailyCompletions).where(AgentDailyCompletions.day < before)
    )
    return int(getattr(result, "rowcount", 0) or 0)
