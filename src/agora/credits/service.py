"""Reading the credit account of the current workspace (moving credits is ``ledger``'s job)."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy.ext.asyncio import AsyncSession

from agora.auth.principal import Principal
from agora.credits import repository as repo
from agora.kit.csvexport import Export
from agora.kit.errors import BadRequest, NotFound
from agora.kit.money import to_display
from agora.kit.timeutil import isoformat, parse_isoformat, utcnow
from agora.models import LedgerEntry
from agora.models.rows import LedgerEntryColumns

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


# ---- exports (docs/billing.md, "Exports") ------------------------------------------------

# What a period's spend is: credits a job's settlement captured and a coworker's usage charges
# (holds are not spent yet; refunds give back what was never captured).
SPEND_KINDS = ("capture", "usage")
LEDGER_HEADER = (
    "time", "entry_id", "kind", "credits", "held_change", "balance_after", "job_id", "user_id",
    "memo",
)  # fmt: skip
SPEND_HEADER = ("time", "entry_id", "kind", "credits_spent", "job_id", "user_id", "memo")


def _when(name: str, value: str | None) -> datetime | None:
    """A period's bound: a date (midnight UTC) or an ISO 8601 timestamp; else 400 on ``name``."""
    if value is None or not value.strip():
        return None
    found = parse_isoformat(value.strip())
    if found is None:
        raise BadRequest.field(name, "must be a date (YYYY-MM-DD) or an ISO 8601 timestamp")
    return found


def period(since: str | None, until: str | None) -> tuple[datetime | None, datetime | None]:
    """``from`` (inclusive) and ``to`` (exclusive), either left open; ``to`` after ``from``."""
    start, end = _when("from", since), _when("to", until)
    if start is not None and end is not None and end <= start:
        raise BadRequest.field("to", "must be after from")
    return start, end


def this_month(now: datetime) -> tuple[datetime, datetime]:
    start = datetime(now.year, now.month, 1, tzinfo=UTC)
    end = datetime(now.year + now.month // 12, now.month % 12 + 1, 1, tzinfo=UTC)
    return start, end


def _key(row: LedgerEntryColumns) -> tuple[datetime, uuid.UUID]:
    return row.created_at, row.id


def _ledger_cells(row: LedgerEntryColumns) -> list[object]:
    return [
        isoformat(row.created_at), row.id, row.kind, to_display(row.amount),
        to_display(row.held_change), to_display(row.balance_after), row.job_id, row.user_id,
        row.memo,
    ]  # fmt: skip


def _spent(row: LedgerEntryColumns) -> int:
    return -row.held_change if row.kind == "capture" else -row.amount


def _spend_cells(row: LedgerEntryColumns) -> list[object]:
    return [
        isoformat(row.created_at), row.id, row.kind, to_display(_spent(row)), row.job_id,
        row.user_id, row.memo,
    ]  # fmt: skip


def ledger_export(
    principal: Principal, *, since: str | None = None, until: str | None = None
) -> Export[LedgerEntryColumns, tuple[datetime, uuid.UUID]]:
    """The current workspace's ledger (``from``/``to``: one period; the whole ledger by
    default), oldest first, as CSV rows."""
    start, end = period(since, until)
    workspace = principal.workspace_id

    async def page(
        session: AsyncSession, after: tuple[datetime, uuid.UUID] | None, limit: int
    ) -> Sequence[LedgerEntryColumns]:
        return await repo.entries_page(
            session, workspace, after=after, limit=limit, since=start, until=end
        )

    return Export("ledger.csv", LEDGER_HEADER, page, _key, _ledger_cells)


def spend_export(
    principal: Principal, *, since: str | None = None, until: str | None = None
) -> Export[LedgerEntryColumns, tuple[datetime, uuid.UUID]]:
    """A period's spend in the current workspace (``from``/``to``; this calendar month, UTC, by
    default; one bound alone leaves the other side open): every capture and usage charge,
    oldest first, as CSV rows."""
    start, end = period(since, until)
    if start is None and end is None:
        start, end = this_month(utcnow())
    workspace = principal.workspace_id

    async def page(
        session: AsyncSession, after: tuple[datetime, uuid.UUID] | None, limit: int
    ) -> Sequence[LedgerEntryColumns]:
        return await repo.entries_page(
            session, workspace, after=after, limit=limit, since=start, until=end,
            kinds=SPEND_KINDS,
        )  # fmt: skip

    name = f"spend-{start:%Y-%m-%d}.csv" if start is not None else "spend.csv"
    return Export(name, SPEND_HEADER, page, _key, _spend_cells)


async def earnings_against_captures(
    session: AsyncSession, limit: int = 100
) -> tuple[int, int, list[tuple[uuid.UUID | None, int, int]]]:
    """Sellers' earnings against the captures (``agora credits reconcile``): the shares the
    captured credit jobs give less reversals, what the earnings accounts hold, and the jobs
    that differ (docs/billing.md, "Paying sellers")."""
    return await repo.earnings_against_captures(session, limit)


SPEND_DAYS = 30
_SPEND_PAGE, _SPEND_PAGES = 1000, 10  # at most 10,000 entries read for the chart


async def daily_spend(
    session: AsyncSession, principal: Principal, days: int = SPEND_DAYS
) -> tuple[list[tuple[datetime, int]], bool]:
    """The workspace's spend (captures and usage charges, as ``spend_export``) per UTC day over
    the last ``days`` days, oldest first (the credits page's chart), and whether the bounded
    read stopped before the end (then the last days are short)."""
    now = utcnow()
    today = datetime(now.year, now.month, now.day, tzinfo=UTC)
    start = today.fromordinal(today.toordinal() - days + 1).replace(tzinfo=UTC)
    totals = {start.fromordinal(start.toordinal() + i).date(): 0 for i in range(days)}
    after: tuple[datetime, uuid.UUID] | None = None
    for _ in range(_SPEND_PAGES):
        rows = await repo.entries_page(
            session, principal.workspace_id, after=after, limit=_SPEND_PAGE, since=start,
            kinds=SPEND_KINDS,
        )  # fmt: skip
        for row in rows:
            day = row.created_at.date()
            if day in totals:
                totals[day] += _spent(row)
        if len(rows) < _SPEND_PAGE:
            return [
                (datetime(d.year, d.month, d.day, tzinfo=UTC), v) for d, v in totals.items()
            ], False
        after = _key(rows[-1])
    return [(datetime(d.year, d.month, d.day, tzinfo=UTC), v) for d, v in totals.items()], True
