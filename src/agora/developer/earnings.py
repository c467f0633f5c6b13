"""A seller's earnings (docs/billing.md, "Paying sellers"): what their agents earned, held back
or payable, per agent, and a month's statement (earnings by agent, refunds, fees; payouts come
with Stripe Connect). Read-only: the ledger writes the entries (credits/ledger.py ``earn``,
``refund_captured``)."""

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
    StatementLineOut,
    StatementOut,
)
from agora.developer.service import require_developer
from agora.kit.errors import BadRequest
from agora.kit.money import shown_price, to_display
from agora.kit.timeutil import isoformat, utcnow
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
    balances = [
        EarningsBalanceOut(
            currency=currency,
            pending=pending,
            payable=amount - pending,
            total=amount,
            display_payable=shown_price(amount - pending, currency),
            display_pending=shown_price(pending, currency),
            credits=credits,
            pending_credits=pending_credits,
        )
        for currency, (pending, amount, credits, pending_credits) in sorted(totals.items())
    ]
    return EarningsOut(
        currency=settings.payouts.currency,
        credit_value=settings.payouts.credit_value,
        holdback_days=settings.payouts.holdback_days,
        balances=balances,
        agents=agents,
        payouts=[],
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


async def statement_rows(session: AsyncSession, principal: Principal, period: str) -> Statement:
    start, end = period_bounds(period)
    rows = await repo.entries_between(session, _owner(principal), start, end, STATEMENT_LIMIT + 1)
    return Statement(period, rows[:STATEMENT_LIMIT], len(rows) > STATEMENT_LIMIT)


async def statement(session: AsyncSession, principal: Principal, period: str) -> StatementOut:
    """A month's statement: per agent and currency the earnings, the refunds (reversals), the
    marketplace fees kept and the net; payouts empty until Stripe Connect lands."""
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
    )


def csv_rows(found: Statement) -> list[tuple[object, ...]]:
    """The statement's entries as CSV rows (after ``CSV_HEADER``); the payout column stays
    empty until Stripe Connect lands."""
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
    ]
