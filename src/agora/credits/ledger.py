"""The one module that moves credits (DESIGN §3 "Money").

grant (an operator's, with its reason) / purchase (a verified Stripe payment) → balance up, and
first pays any shortfall. clawback (a Stripe refund or dispute) → balance down as far as it goes,
the rest recorded as the workspace's shortfall (docs/billing.md). hold (job creation) → balance
down, held up, or PaymentRequired (also while the workspace owes a shortfall). capture (job
completed) → held down (the credits are spent). refund (failed/cancelled) → held down, balance up.
bonus (a promotion code's credits, paid by the operator) → balance up.

Sellers' earnings accounts (docs/billing.md, "Paying sellers"): ``earn`` (a credit-priced job
captured: the seller's share, its price without the marketplace fee, to the listing owner's
earnings account, in the capture's transaction, at the credit's money value in force) and
``refund_captured`` (a completed job refunded: the buyer's credits back and the earning reversed,
even when that takes the account below zero). Each call writes its ledger entries in the caller's
transaction.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta
from decimal import ROUND_HALF_EVEN, Decimal
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from agora.credits import repository as repo
from agora.kit.errors import BadRequest, NotFound, PaymentRequired
from agora.kit.money import BASE_UNITS_PER_CREDIT, to_display
from agora.kit.timeutil import as_utc
from agora.settings import PayoutSettings

CREDIT_KINDS = ("grant", "purchase", "bonus")
EARNING, REVERSAL = "earning", "reversal"


async def grant(
    session: AsyncSession,
    *,
    workspace_id: uuid.UUID,
    amount: int,
    user_id: uuid.UUID | None = None,
    memo: str = "grant",
    kind: str = "grant",
) -> int:
    """Credits in (``kind``: grant | purchase | bonus). A shortfall the workspace owes is paid
    first, in a second entry (``settle``), so the ledger shows both movements."""
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


# ---- sellers' earnings --------------------------------------------------------------------


@dataclass(frozen=True)
class PayoutTerms:
    """The operator's payout settings in force at a capture: the payout currency, what one whole
    credit is worth in its minor units, and the holdback before earnings are payable."""

    currency: str
    credit_value: int
    holdback: timedelta

    @classmethod
    def of(cls, payouts: PayoutSettings) -> PayoutTerms:
        """The terms of the settings; ValueError when the currency is not an ISO 4217 code
        (the dispatcher builds them when it starts, so a wrong setting stops it at once)."""
        currency = payouts.currency.strip().lower()
        if len(currency) != 3 or not currency.isascii() or not currency.isalpha():
            raise ValueError(f"AGORA_PAYOUTS_CURRENCY: {payouts.currency!r} is not a currency code")
        return cls(currency, payouts.credit_value, timedelta(days=payouts.holdback_days))


def money_of(credits: int, credit_value: int) -> int:
    """``credits`` (base units) in minor units at ``credit_value`` per whole credit, rounded
    half-even."""
    exact = Decimal(credits) * credit_value / BASE_UNITS_PER_CREDIT
    return int(exact.to_integral_value(ROUND_HALF_EVEN))


async def earn(
    session: AsyncSession,
    *,
    job_id: uuid.UUID,
    agent_id: uuid.UUID,
    captured: int,
    fee: int,
    terms: PayoutTerms,
    now: datetime,
) -> int:
    """Credit the seller's share of a captured job (``captured`` less the marketplace ``fee``,
    which stays with the operator) to the agent owner's earnings account; payable after the
    holdback. Returns the share in base units (0: nothing to earn)."""
    share = captured - min(fee, captured)
    owner = await repo.agent_owner(session, agent_id)
    if share <= 0 or owner is None:
        return 0
    await repo.add_earnings_entry(
        session,
        owner_user_id=owner[0],
        owner_organization_id=owner[1],
        agent_id=agent_id,
        job_id=job_id,
        kind=EARNING,
        credits=share,
        fee=min(fee, captured),
        currency=terms.currency,
        credit_value=terms.credit_value,
        amount=money_of(share, terms.credit_value),
        payable_at=now + terms.holdback,
        created_at=now,
    )
    return share


async def refund_captured(
    session: AsyncSession,
    *,
    workspace_id: uuid.UUID,
    job_id: uuid.UUID,
    amount: int,
    user_id: uuid.UUID | None,
    memo: str,
    now: datetime,
) -> int:
    """A completed job's captured ``amount`` back to the buyer's balance (a ``refund`` entry),
    and the seller's earning of it reversed (the same credits, fee and money at the earning's
    rate, negated; payable at the earning's end of holdback, or at once once it passed: a
    reversal after a payout takes the account below zero, recovered from later earnings).
    The caller makes sure a job is refunded once (a compare-and-set on the job). New balance."""
    if amount <= 0:
        raise BadRequest.field("amount", "must be positive")
    balance = await repo.add_to_balance(session, workspace_id, amount)
    if balance is None:
        raise NotFound(f"Workspace {workspace_id} not found")
    await repo.add_entry(
        session,
        workspace_id=workspace_id,
        job_id=job_id,
        user_id=user_id,
        kind="refund",
        amount=amount,
        held_change=0,
        balance_after=balance,
        memo=memo[:500],
    )
    await repo.clear_low_balance(session, workspace_id)
    earning = await repo.earning_of(session, job_id)
    if earning is not None:
        await repo.add_earnings_entry(
            session,
            owner_user_id=earning.owner_user_id,
            owner_organization_id=earning.owner_organization_id,
            agent_id=earning.agent_id,
            job_id=job_id,
            kind=REVERSAL,
            credits=-earning.credits,
            fee=-earning.fee,
            currency=earning.currency,
            credit_value=earning.credit_value,
            amount=-earning.amount,
            payable_at=max(as_utc(earning.payable_at), now),
            created_at=now,
        )
    return balance
