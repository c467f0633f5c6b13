"""The one module that moves credits (DESIGN §3 "Money").

grant (an operator's, with its reason) / purchase (a verified Stripe payment) → balance up, and
first pays any shortfall. clawback (a Stripe refund or dispute) → balance down as far as it goes,
the rest recorded as the workspace's shortfall (docs/billing.md). hold (job creation) → balance
down, held up, or PaymentRequired (also while the workspace owes a shortfall). capture (job
completed) → held down (the credits are spent). refund (failed/cancelled) → held down, balance up.
Each call writes its ledger entries in the caller's transaction.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from agora.credits import repository as repo
from agora.kit.errors import BadRequest, NotFound, PaymentRequired
from agora.kit.money import to_display

CREDIT_KINDS = ("grant", "purchase")


async def grant(
    session: AsyncSession,
    *,
    workspace_id: uuid.UUID,
    amount: int,
    user_id: uuid.UUID | None = None,
    memo: str = "grant",
    kind: str = "grant",
) -> int:
    """Credits in (``kind``: grant | purchase). A shortfall the workspace owes is paid first, in
    a second entry (``settle``), so the ledger shows both movements."""
    if amount <= 0:
        raise BadRequest.field("amount", "must be positive")
    if kind not in CREDIT_KINDS:
        raise ValueError(f"kind must be one of {CREDIT_KINDS}")
    balance = await repo.add_to_balance(session, workspace_id, amount)
    if balance is None:
        raise NotFound(f"Workspace {workspace_id} not found")
    await repo.add_entry(
        session,
        workspace_id=workspace_id,
        user_id=user_id,
        kind=kind,
        amount=amount,
        balance_after=balance,
        memo=memo[:500],
    )
    await repo.clear_low_balance(session, workspace_id)  # the next fall below warns again
    if await repo.shortfall(session, workspace_id):
        after, _owed = await repo.settle_shortfall(session, workspace_id)
        if after != balance:
            await repo.add_entry(
                session,
                workspace_id=workspace_id,
                user_id=user_id,
                kind="settle",
                amount=after - balance,
                balance_after=after,
                memo="paid the shortfall left by a refunded or disputed purchase",
            )
            balance = after
    return balance


async def clawback(
    session: AsyncSession, *, workspace_id: uuid.UUID, amount: int, memo: str
) -> tuple[int, int]:
    """Take ``amount`` back (a refund or dispute): from the available balance as far as it goes,
    never below zero; what was already spent becomes the workspace's shortfall, which blocks new
    paid jobs until settled. Returns (taken, added to the shortfall)."""
    if amount <= 0:
        raise BadRequest.field("amount", "must be positive")
    found = await repo.account_for_update(session, workspace_id)
    if found is None:
        raise NotFound(f"Workspace {workspace_id} not found")
    balance, _held, owed = found
    taken = min(balance, amount)
    short = amount - taken
    await repo.set_balance_and_shortfall(session, workspace_id, balance - taken, owed + short)
    await repo.add_entry(
        session,
        workspace_id=workspace_id,
        kind="clawback",
        amount=-taken,
        balance_after=balance - taken,
        memo=(f"{memo}; {to_display(short)} credits already spent: owed" if short else memo)[:500],
    )
    return taken, short


@dataclass(frozen=True)
class Held:
    """After a hold: the balance, and whether it fell below the workspace's low-balance
    threshold (set, or else the price of this job) for the first time since the last warning."""

    balance: int
    crossed_low: bool


async def hold(
    session: AsyncSession,
    *,
    workspace_id: uuid.UUID,
    amount: int,
    job_id: uuid.UUID,
    user_id: uuid.UUID | None,
) -> Held:
    if amount < 0:
        raise BadRequest.field("amount", "must not be negative")
    row = await repo.take_hold(session, workspace_id, amount)
    if row is None:
        owed = await repo.shortfall(session, workspace_id)
        if owed:
            raise PaymentRequired(
                f"The workspace owes {to_display(owed)} credits from a refunded or disputed "
                "purchase that was already spent; buy credits to settle it before hiring paid "
                "agents"
            )
        current = await repo.balances(session, workspace_id)
        available = current[0] if current else 0
        raise PaymentRequired(
            f"Not enough credits: the job costs {to_display(amount)}, "
            f"the workspace has {to_display(available)} available"
        )
    await repo.add_entry(
        session,
        workspace_id=workspace_id,
        job_id=job_id,
        user_id=user_id,
        kind="hold",
        amount=-amount,
        held_change=amount,
        balance_after=int(row.balance),
        memo="held for job",
    )
    threshold = row.low_balance_threshold if row.low_balance_threshold is not None else amount
    crossed = int(row.balance) < threshold and not row.low_balance_warned
    return Held(int(row.balance), crossed and await repo.flag_low_balance(session, workspace_id))


async def settle(
    session: AsyncSession,
    *,
    workspace_id: uuid.UUID,
    job_id: uuid.UUID,
    held: int,
    refund: int,
    user_id: uuid.UUID | None = None,
) -> int:
    """Settle a job's hold: capture ``held - refund`` and give ``refund`` back."""
    if not 0 <= refund <= held:
        raise ValueError("refund must be between 0 and the held amount")
    balance = await repo.release_hold(session, workspace_id, held, refund)
    if balance is None:
        raise RuntimeError(f"workspace {workspace_id} holds less than {held}")
    captured = held - refund
    if captured:
        await repo.add_entry(
            session,
            workspace_id=workspace_id,
            job_id=job_id,
            user_id=user_id,
            kind="capture",
            amount=0,
            held_change=-captured,
            balance_after=balance - refund,
            memo="captured for completed job",
        )
    if refund or not captured:
        await repo.add_entry(
            session,
            workspace_id=workspace_id,
            job_id=job_id,
            user_id=user_id,
            kind="refund",
            amount=refund,
            held_change=-refund,
            balance_after=balance,
            memo="refunded",
        )
    return balance


async def charge_usage(
    session: AsyncSession,
    *,
    workspace_id: uuid.UUID,
    amount: int,
    user_id: uuid.UUID,
    memo: str,
) -> Any:
    """A coworker's usage charge: balance down at once (no hold), or PaymentRequired when short.
    Returns the ledger entry's row (its id is the charge's ``transactionId``)."""
    if amount <= 0:
        raise BadRequest.field("credits", "must be positive")
    balance = await repo.take_from_balance(session, workspace_id, amount)
    if balance is None:
        current = await repo.balances(session, workspace_id)
        available = current[0] if current else 0
        raise PaymentRequired(
            f"Not enough credits: the usage costs {to_display(amount)}, "
            f"the workspace has {to_display(available)} available"
        )
    return await repo.add_entry(
        session,
        workspace_id=workspace_id,
        user_id=user_id,
        kind="usage",
        amount=-amount,
        balance_after=balance,
        memo=memo[:500],
    )
