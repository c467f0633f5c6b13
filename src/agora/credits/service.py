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
