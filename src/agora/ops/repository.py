"""SQL for operational gauges (read at scrape time)."""

from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from agora.models import Job, LedgerEntry, Workspace


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
