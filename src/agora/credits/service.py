"""Reading the credit account of the current workspace (moving credits is ``ledger``'s job)."""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from sqlalchemy.ext.asyncio import AsyncSession

from agora.auth.principal import Principal
from agora.credits import repository as repo
from agora.kit.errors import BadRequest, NotFound
from agora.models import LedgerEntry

MAX_ENTRIES = 100


@dataclass(frozen=True)
class Account:
    """A workspace's credit account (base units) and its recent ledger rows."""

    workspace_id: uuid.UUID
    balance: int
    held: int
    entries: list[LedgerEntry]
    shortfall: int = 0


async def account(session: AsyncSession, principal: Principal, *, limit: int = 20) -> Account:
    """Balance, held credits and the most recent ledger entries of the current workspace."""
    if not 1 <= limit <= MAX_ENTRIES:
        raise BadRequest.field("limit", f"must be between 1 and {MAX_ENTRIES}")
    found = await repo.balances(session, principal.workspace_id)
    if found is None:
        raise NotFound("Workspace not found")
    entries = await repo.recent_entries(session, principal.workspace_id, limit)
    owed = await repo.shortfall(session, principal.workspace_id)
    return Account(principal.workspace_id, found[0], found[1], list(entries), owed)


async def warning_state(
    session: AsyncSession, workspace_id: uuid.UUID
) -> tuple[int, int, int] | None:
    """(balance, shortfall, threshold) of a workspace, for its low-balance warning: the threshold
    it set, else the price of its last job (its most recent hold)."""
    found = await repo.warning_state(session, workspace_id)
    if found is None:
        return None
    balance, shortfall, threshold = found
    if threshold is None:
        threshold = await repo.last_hold(session, workspace_id) or 0
    return balance, shortfall, threshold


async def set_low_balance_threshold(
    session: AsyncSession, workspace_id: uuid.UUID, threshold: int | None
) -> None:
    """Set (base units) or clear (None) the workspace's low-balance threshold; warn again."""
    if await repo.balances(session, workspace_id) is None:
        raise NotFound("Workspace not found")
    await repo.set_low_balance_threshold(session, workspace_id, threshold)


async def purchased_total(session: AsyncSession) -> int:
    """The credits every ``purchase`` ledger entry granted, in all (reconciliation)."""
    return await repo.purchased_total(session)


async def earnings_against_captures(
    session: AsyncSession, limit: int = 100
) -> tuple[int, int, list[tuple[uuid.UUID | None, int, int]]]:
    """Sellers' earnings against the captures (``agora credits reconcile``): the shares the
    captured credit jobs give less reversals, what the earnings accounts hold, and the jobs
    that differ (docs/billing.md, "Paying sellers")."""
    return await repo.earnings_against_captures(session, limit)
