"""Reading the credit account of the current workspace (moving credits is ``ledger``'s job)."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession

from agora.auth.principal import Principal
from agora.credits import repository as repo
from agora.credits.schemas import CreditsOut, LedgerEntryOut
from agora.kit.errors import BadRequest, NotFound
from agora.kit.money import to_display

MAX_ENTRIES = 100


async def account(session: AsyncSession, principal: Principal, *, limit: int = 20) -> CreditsOut:
    """Balance, held credits and the most recent ledger entries of the current workspace."""
    if not 1 <= limit <= MAX_ENTRIES:
        raise BadRequest.field("limit", f"must be between 1 and {MAX_ENTRIES}")
    found = await repo.balances(session, principal.workspace_id)
    if found is None:
        raise NotFound("Workspace not found")
    entries = await repo.recent_entries(session, principal.workspace_id, limit)
    return CreditsOut(
        workspaceId=str(principal.workspace_id),
        balance=to_display(found[0]),
        held=to_display(found[1]),
        entries=[LedgerEntryOut.of(e) for e in entries],
    )
