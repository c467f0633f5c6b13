"""Low-balance warnings (docs/billing.md): the web app's banner while the balance is below the
workspace's threshold, and one ``credits.low_balance`` notification (inbox and mail by default,
docs/notifications.md) to each payer each time the balance falls below it (the flag is set by
the hold that crosses it and cleared when credits come in again)."""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from sqlalchemy.ext.asyncio import AsyncSession

from agora.auth.principal import Principal
from agora.billing import repository as repo
from agora.billing import service as billing
from agora.credits import service as credits
from agora.kit.money import to_display
from agora.notifications import notify
from agora.settings import Settings


@dataclass(frozen=True)
class LowBalance:
    balance: int
    shortfall: int
    threshold: int


async def header(
    session: AsyncSession, principal: Principal
) -> tuple[int | None, LowBalance | None]:
    """The web app's header: the balance, and the banner's facts when the balance is low (or
    something is owed)."""
    found = await credits.warning_state(session, principal.workspace_id)
    if found is None:
        return None, None
    balance, shortfall, threshold = found
    if shortfall or balance < threshold:
        return balance, LowBalance(balance, shortfall, threshold)
    return balance, None


async def crossed(
    session: AsyncSession, settings: Settings, workspace_id: uuid.UUID, balance: int
) -> None:
    """The hold that took the balance below the threshold: each payer's ``credits.low_balance``
    notification (inbox and mail by default), in the hold's transaction."""
    del settings  # the mail's link comes from the kind (notifications/kinds.py)
    for user_id in await repo.payers(session, workspace_id):
        await notify(
            session,
            user_id=user_id,
            kind="credits.low_balance",
            subject_ref=f"workspace:{workspace_id}",
            data={
                "workspaceId": str(workspace_id),
                "balance": to_display(balance),
                "message": f"The workspace has {to_display(balance)} credits left. You get this "
                "once each time the balance falls below the threshold.",
            },
        )


async def set_threshold(
    session: AsyncSession, principal: Principal, threshold: object | None
) -> int | None:
    """Set (credits, display units) or clear (None: the price of the last job) the threshold;
    for those who buy the workspace's credits."""
    billing.require_buyer(principal)
    value = None if threshold is None else billing.credits_field(threshold, "threshold")
    await credits.set_low_balance_threshold(session, principal.workspace_id, value)
    return value
