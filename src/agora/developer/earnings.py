"""A seller's earnings (docs/billing.md, "Paying sellers"): what their agents earned, held back
or payable, per agent, and a month's statement (earnings by agent, refunds, fees, payouts), and
the state of the seller's Stripe Connect account. Read-only: the ledger writes the entries
(credits/ledger.py ``earn``, ``refund_captured``), billing/payouts.py the payouts."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from agora.auth.principal import Permission, Principal
from agora.developer import earnings_repository as repo
from agora.developer.schemas import (
    EarningsAgentOut,
    EarningsBalanceOut,
    EarningsOut,
    PayoutAccountOut,
    PayoutOut,
    StatementLineOut,
    StatementOut,
)
from agora.developer.service import require_developer
from agora.kit.errors import BadRequest
from agora.kit.money import shown_price, to_display
from agora.kit.timeutil import isoformat, utcnow
from agora.models import ConnectedAccount
from agora.models.payout import account_key
from agora.settings import Settings

STATEMENT_LIMIT = 10_000  # entries in one month's statement (page, API and CSV)
PERIOD = re.compile(r"^(\d{4})-(\d{2})$")
CSV_HEADER = (
    "date",
    "kind",
    "agent_id",
    "agent",
    "job_id",
    "credits",
    "fee_credits",
    "currency",
    "credit_value",
    "amount",
    "payable_at",
    "payout",
)


def describe_reason(disabled_reason: str | None, due: list[str]) -> str:
    """Why Stripe will not pay an account, in words (Stripe's ``requirements.disabled_reason``,
    SDK 16.1.0 ``_account.py``, and what is due)."""
    words = {
        "requirements.past_due": "Stripe needs more information from you",
        "requirements.pending_verification": "Stripe is verifying your information",
        "rejected.fraud": "Stripe rejected the account",
        "rejected.terms_of_service": "Stripe rejected the account",
        "rejected.other": "Stripe rejected the account",
        "under_review": "Stripe is reviewing the account",
        "listed": "Stripe is reviewing the account",
    }
    reason = words.get(disabled_reason or "", "Stripe has not enabled payouts yet")
    if due:
        shown = ", ".join(item.replace("_", " ") for item in due[:5])
        reason += f" (due: {shown}{', …' if len(due) > 5 else ''})"
    return reason


def payout_account(row: ConnectedAccount | None) -> PayoutAccountOut:
    """The connected account's state, in a word and in words."""
    if row is None:
        return PayoutAccountOut(
            connected=False, stripe_account_id=None, details_submitted=False,
            payouts_enabled=False, requirements_due=[], disabled_reason=None,
            state="not_connected",
            words="Not connected: connect a Stripe account to be paid your earnings. Until "
            "then nothing is paid out; your earnings wait in your balance.",
        )  # fmt: skip
    due = [item for item in row.requirements_due.split(",") if item]
    if row.payouts_enabled:
        state, words = "ready", "Ready: payouts go to your Stripe account."
    elif not row.details_submitted:
        state = "onboarding"
        words = ("Onboarding not finished: Stripe needs your details before it can pay you "
                 "(continue the onboarding). Nothing is paid out until then.")  # fmt: skip
    else:
        state = "restricted"
        words = (f"Payouts paused: {describe_reason(row.disabled_reason, due)}. Nothing is paid "
                 "out until Stripe enables payouts again.")  # fmt: skip
    return PayoutAccountOut(
        connected=True, stripe_account_id=row.stripe_account_id,
        details_submitted=row.details_submitted, payouts_enabled=row.payouts_enabled,
        requirements_due=due, disabled_reason=row.disabled_reason, state=state, words=words,
    )  # fmt: skip


def _key(principal: Principal) -> str:
    return account_key(principal.user_id, principal.organization_id)


def _owner(principal: Principal) -> Any:
    principal.require(Permission.READ)
    require_developer(principal)
    return repo.account(principal.user_id, principal.organization_id)


async def earnings(session: AsyncSession, principal: Principal, settings: Settings) -> EarningsOut:
    """The caller's earnings account: per currency held back (pending), payable and in all;
    per agent the same."""
    now = utcnow()
    agents: list[EarningsAgentOut] = []
    totals: dict[str, list[int]] = {}
    for agent_id, name, currency, credits, amount, pending, pending_credits in await repo.balances(
        session, _owner(principal), now
    ):
        credits, amount = int(credits or 0), int(amount or 0)
        pending, pending_credits = int(pending or 0), int(pending_credits or 0)
        agents.append(
            EarningsAgentOut(
                agent_id=agent_id,
                name=name or "(deleted agent)",
                currency=currency,
                pending=pending,
                payable=amount - pending,
                total=amount,
                credits=credits,
                pending_credits=pending_credits,
            )
        )
        sums = totals.setdefault(currency, [0, 0, 0, 0])
        for i, value in enumerate((pending, amount, credits, pending_credits)):
            sums[i] += value
    key = _key(principal)
    paid = await repo.paid_out(session, key)
    balances = [
        EarningsBalanceOut(
            currency=currency,
            pending=pending,
            payable=amount - pending - paid.get(currency, 0),
            total=amount - paid.get(currency, 0),
            display_payable=shown_price(amount - pending - paid.get(currency, 0), currency),
            display_pending=shown_price(pending, currency),
            credits=credits,
            pending_credits=pending_credits,
            paid_out=paid.get(currency, 0),
        )
        for currency, (pending, amount, credits, pending_credits) in sorted(totals.items())
    ]
    return EarningsOut(
        currency=settings.payouts.currency,
        credit_value=settings.payouts.credit_value,
        holdback_days=settings.payouts.holdback_days,
        balances=balances,
        agents=agents,
        payouts=[PayoutOut.model_validate(p) for p in await repo.payouts(session, key)],
        payout_account=payout_account(await repo.connected_account(session, key)),
    )


def period_bounds(period: str) -> tuple[datetime, datetime]:
    """``YYYY-MM`` → that UTC month's [start, end); 400 naming ``period`` otherwise."""
    found = PERIOD.match(period)
    if not found or not 1 <= int(found[2]) <= 12 or int(found[1]) < 2000:
        raise BadRequest.field("period", "must be a month, YYYY-MM (e.g. 2026-11)")
    year, month = int(found[1]), int(found[2])
    start = datetime(year, month, 1, tzinfo=UTC)
    end = datetime(year + (month == 12), month % 12 + 1, 1, tzinfo=UTC)
    return start, end


@dataclass(frozen=True)
class Statement:
    period: str
    rows: list[Any]  # (EarningsEntry, agent name), oldest first
    truncated: bool
    payouts: list[Any]  # the month's payouts, oldest first


async def statement_rows(session: AsyncSession, principal: Principal, period: str) -> Statement:
    start, end = period_bounds(period)
    rows = await repo.entries_between(session, _owner(principal), start, end, STATEMENT_LIMIT + 1)
    made = await repo.payouts(session, _key(principal), period=period, limit=1000)
    return Statement(period, rows[:STATEMENT_LIMIT], len(rows) > STATEMENT_LIMIT, made)


async def statement(session: AsyncSession, principal: Principal, period: str) -> StatementOut:
    """A month's statement: per agent and currency the earnings, the refunds (reversals), the
    marketplace fees kept and the net; and the month's payouts."""
    found = await statement_rows(session, principal, period)
    lines: dict[tuple[Any, str], dict[str, Any]] = {}
    for entry, name in found.rows:
        line = lines.setdefault(
            (entry.agent_id, entry.currency),
            {"agent_id": entry.agent_id, "name": name or "(deleted agent)",
             "currency": entry.currency, "jobs": 0, "refunded_jobs": 0, "earned": 0,
             "refunded": 0, "fees": 0, "earned_credits": 0, "refunded_credits": 0},
        )  # fmt: skip
        line["fees"] += entry.fee
        if entry.kind == "earning":
            line["jobs"] += 1
            line["earned"] += entry.amount
            line["earned_credits"] += entry.credits
        else:
            line["refunded_jobs"] += 1
            line["refunded"] += entry.amount
            line["refunded_credits"] += entry.credits
    return StatementOut(
        period=period,
        lines=[
            StatementLineOut(**line, net=line["earned"] + line["refunded"], payouts=None)
            for line in lines.values()
        ],
        truncated=found.truncated,
        payouts=[PayoutOut.model_validate(p) for p in found.payouts],
    )


def csv_rows(found: Statement) -> list[tuple[object, ...]]:
    """The statement's entries as CSV rows (after ``CSV_HEADER``), then its payouts (kind
    ``payout``: the amount transferred, less any reversal, negated; ``payout`` is Stripe's
    transfer id and the payout's status)."""
    payouts: list[tuple[object, ...]] = [
        (
            isoformat(p.created_at), "payout", None, None, None, None, None, p.currency, None,
            -(p.amount - p.amount_reversed) if p.status in ("pending", "paid") else 0, None,
            f"{p.stripe_transfer_id or ''} {p.status}".strip(),
        )
        for p in found.payouts
    ]  # fmt: skip
    return [
        (
            isoformat(entry.created_at),
            entry.kind,
            entry.agent_id,
            name,
            entry.job_id,
            to_display(entry.credits),
            to_display(entry.fee),
            entry.currency,
            entry.credit_value,
            entry.amount,
            isoformat(entry.payable_at),
            None,
        )
        for entry, name in found.rows
    ] + payouts
