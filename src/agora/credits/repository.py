"""All SQL that moves credits. Every balance change is one conditional UPDATE, so concurrent
holds can never take a balance below zero (the CHECK constraint is the second line of defence)."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import datetime
from typing import Any, Protocol, cast

from sqlalchemy import Table, and_, bindparam, case, func, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from agora.kit.timeutil import utcnow
from agora.kit.writes import PreparedWrite, RowInsert, insert_row, write
from agora.models import Agent, EarningsEntry, Job, LedgerEntry, Workspace
from agora.models.rows import LedgerEntryColumns
from agora.models.statuses import JobStatus


async def add_to_balance(session: AsyncSession, workspace_id: uuid.UUID, amount: int) -> int | None:
    """balance += amount; returns the new balance, or None when the workspace does not exist."""
    result = await session.execute(
        update(Workspace)
        .where(Workspace.id == workspace_id)
        .values(balance=Workspace.balance + amount, updated_at=utcnow())
        .returning(Workspace.balance)
    )
    return result.scalar_one_or_none()


# A job's creation runs it: compiled once, run on the session's connection (kit/writes.py; it
# cost more to build than to run: docs/performance.md). On the table, so no workspace object of
# the session is refreshed by it (nothing reads one after a hold).
# (``__table__`` is typed as any ``FromClause``; these are ``Table``s.)
_WORKSPACE_TABLE, _LEDGER_TABLE = Workspace.__table__, LedgerEntry.__table__
assert isinstance(_WORKSPACE_TABLE, Table)
assert isinstance(_LEDGER_TABLE, Table)
_WORKSPACES = _WORKSPACE_TABLE.c


class _Balance(Protocol):
    """What taking a hold returns: the balance after it and the low-balance state."""

    @property
    def balance(self) -> int: ...
    @property
    def low_balance_threshold(self) -> int | None: ...
    @property
    def low_balance_warned(self) -> bool: ...


_TAKE_HOLD: PreparedWrite[_Balance] = PreparedWrite(
    update(_WORKSPACE_TABLE)
    .where(
        _WORKSPACES.id == bindparam("workspace_id"),
        _WORKSPACES.balance >= bindparam("amount"),
        # A workspace that owes credits (a refunded or disputed purchase already spent) starts
        # no paid job until the shortfall is settled (docs/billing.md).
        _WORKSPACES.shortfall == 0,
    )
    .values(
        balance=_WORKSPACES.balance - bindparam("amount"),
        held=_WORKSPACES.held + bindparam("amount"),
        updated_at=bindparam("now"),
    )
    .returning(
        _WORKSPACES.balance, _WORKSPACES.low_balance_threshold, _WORKSPACES.low_balance_warned
    ),
    shape=_Balance,
)


async def take_hold(session: AsyncSession, workspace_id: uuid.UUID, amount: int) -> _Balance | None:
    """Move ``amount`` from available to held if the balance covers it: the row (``balance``
    after, ``low_balance_threshold``, ``low_balance_warned``), or None."""
    rows = await write(session, _TAKE_HOLD, workspace_id=workspace_id, amount=amount, now=utcnow())
    return rows[0] if rows else None


async def flag_low_balance(session: AsyncSession, workspace_id: uuid.UUID) -> bool:
    """Mark the workspace warned; True only for the one transaction that flips the flag."""
    result = await session.execute(
        update(Workspace)
        .where(Workspace.id == workspace_id, Workspace.low_balance_warned.is_(False))
        .values(low_balance_warned=True)
        .returning(Workspace.id)
    )
    return result.first() is not None


async def clear_low_balance(session: AsyncSession, workspace_id: uuid.UUID) -> None:
    await session.execute(
        update(Workspace)
        .where(Workspace.id == workspace_id, Workspace.low_balance_warned.is_(True))
        .values(low_balance_warned=False)
    )


async def last_hold(session: AsyncSession, workspace_id: uuid.UUID) -> int | None:
    """The price of the workspace's last job (its most recent hold), base units."""
    found = await session.scalar(
        select(LedgerEntry.held_change)
        .where(LedgerEntry.workspace_id == workspace_id, LedgerEntry.kind == "hold")
        .order_by(LedgerEntry.created_at.desc(), LedgerEntry.id.desc())
        .limit(1)
    )
    return int(found) if found is not None else None


async def warning_state(
    session: AsyncSession, workspace_id: uuid.UUID
) -> tuple[int, int, int | None] | None:
    """(balance, shortfall, low_balance_threshold)."""
    row = (
        await session.execute(
            select(Workspace.balance, Workspace.shortfall, Workspace.low_balance_threshold).where(
                Workspace.id == workspace_id
            )
        )
    ).first()
    return (int(row[0]), int(row[1]), row[2]) if row else None


async def set_low_balance_threshold(
    session: AsyncSession, workspace_id: uuid.UUID, threshold: int | None
) -> None:
    await session.execute(
        update(Workspace)
        .where(Workspace.id == workspace_id)
        .values(low_balance_threshold=threshold, low_balance_warned=False, updated_at=utcnow())
    )


async def release_hold(
    session: AsyncSession, workspace_id: uuid.UUID, held: int, refund: int
) -> int | None:
    """Drop ``held`` from the held amount and give ``refund`` of it back; new balance."""
    result = await session.execute(
        update(Workspace)
        .where(Workspace.id == workspace_id, Workspace.held >= held)
        .values(
            balance=Workspace.balance + refund,
            held=Workspace.held - held,
            updated_at=utcnow(),
        )
        .returning(Workspace.balance)
    )
    return result.scalar_one_or_none()


async def settle_shortfall(session: AsyncSession, workspace_id: uuid.UUID) -> tuple[int, int]:
    """Pay what the workspace owes from its balance, as far as it goes: (balance, shortfall)."""
    paid = case(
        (Workspace.shortfall <= Workspace.balance, Workspace.shortfall), else_=Workspace.balance
    )
    row = (
        await session.execute(
            update(Workspace)
            .where(Workspace.id == workspace_id)
            .values(
                balance=Workspace.balance - paid,
                shortfall=Workspace.shortfall - paid,
                updated_at=utcnow(),
            )
            .returning(Workspace.balance, Workspace.shortfall)
        )
    ).one()
    return int(row[0]), int(row[1])


async def account_for_update(
    session: AsyncSession, workspace_id: uuid.UUID
) -> tuple[int, int, int] | None:
    """(balance, held, shortfall), the row locked until the transaction ends (PostgreSQL;
    SQLite's write transaction already holds the database's write lock)."""
    row = (
        await session.execute(
            select(Workspace.balance, Workspace.held, Workspace.shortfall)
            .where(Workspace.id == workspace_id)
            .with_for_update()
        )
    ).first()
    return (int(row[0]), int(row[1]), int(row[2])) if row else None


async def set_balance_and_shortfall(
    session: AsyncSession, workspace_id: uuid.UUID, balance: int, shortfall: int
) -> None:
    await session.execute(
        update(Workspace)
        .where(Workspace.id == workspace_id)
        .values(balance=balance, shortfall=shortfall, updated_at=utcnow())
    )


async def shortfall(session: AsyncSession, workspace_id: uuid.UUID) -> int:
    value = await session.scalar(select(Workspace.shortfall).where(Workspace.id == workspace_id))
    return int(value or 0)


async def balances(session: AsyncSession, workspace_id: uuid.UUID) -> tuple[int, int] | None:
    row = (
        await session.execute(
            select(Workspace.balance, Workspace.held).where(Workspace.id == workspace_id)
        )
    ).first()
    return (int(row[0]), int(row[1])) if row else None


# Ledger entries are written once and never changed: inserted by a statement built once
# (kit/writes.py), not through the unit of work.
_ENTRY_INSERT: RowInsert[LedgerEntryColumns] = RowInsert(_LEDGER_TABLE, shape=LedgerEntryColumns)


async def add_entry(session: AsyncSession, **values: Any) -> LedgerEntryColumns:
    """Insert one ledger entry (``LedgerEntry``'s columns); the row as written."""
    return await insert_row(session, _ENTRY_INSERT, **values)


async def recent_entries(
    session: AsyncSession, workspace_id: uuid.UUID, limit: int
) -> list[LedgerEntry]:
    result = await session.scalars(
        select(LedgerEntry)
        .where(LedgerEntry.workspace_id == workspace_id)
        .order_by(LedgerEntry.created_at.desc(), LedgerEntry.id.desc())
        .limit(limit)
    )
    return list(result)


async def take_from_balance(
    session: AsyncSession, workspace_id: uuid.UUID, amount: int
) -> int | None:
    """balance -= amount if the balance covers it; the new balance, or None when short."""
    result = await session.execute(
        update(Workspace)
        .where(Workspace.id == workspace_id, Workspace.balance >= amount)
        .values(balance=Workspace.balance - amount, updated_at=utcnow())
        .returning(Workspace.balance)
    )
    return result.scalar_one_or_none()


async def purchased_total(session: AsyncSession) -> int:
    """The credits of every ``purchase`` entry of the ledger."""
    total = await session.scalar(
        select(func.coalesce(func.sum(LedgerEntry.amount), 0)).where(LedgerEntry.kind == "purchase")
    )
    return int(total or 0)


async def entries_page(
    session: AsyncSession,
    workspace_id: uuid.UUID,
    *,
    after: tuple[datetime, uuid.UUID] | None,
    limit: int,
    since: datetime | None = None,
    until: datetime | None = None,
    kinds: Sequence[str] = (),
) -> Sequence[LedgerEntryColumns]:
    """A page of the workspace's ledger, oldest first, keyset-paged on ``(created_at, id)``
    (the index ``ix_ledger_workspace_created``): entries after ``after``, at or after ``since``
    and before ``until``, of ``kinds`` (all when empty)."""
    entry = LedgerEntry
    query = select(
        entry.id, entry.workspace_id, entry.created_at, entry.kind, entry.amount,
        entry.held_change, entry.balance_after, entry.job_id, entry.user_id, entry.memo,
    ).where(entry.workspace_id == workspace_id)  # fmt: skip
    if since is not None:
        query = query.where(entry.created_at >= since)
    if until is not None:
        query = query.where(entry.created_at < until)
    if kinds:
        query = query.where(entry.kind.in_(list(kinds)))
    if after is not None:
        at, last = after
        query = query.where(  # the first condition is the index range, the second the key
            entry.created_at >= at,
            or_(entry.created_at > at, and_(entry.created_at == at, entry.id > last)),
        )
    query = query.order_by(entry.created_at, entry.id).limit(limit)
    return cast(Sequence[LedgerEntryColumns], (await session.execute(query)).all())


# ---- sellers' earnings accounts -------------------------------------------------------------


async def agent_owner(
    session: AsyncSession, agent_id: uuid.UUID
) -> tuple[uuid.UUID | None, uuid.UUID | None] | None:
    """The earnings account of a listing: (None, its organization) when an organization owns
    it, else (its submitting user, None); None when it has neither (an agent the operator lists:
    its earnings stay with the operator)."""
    row = (
        await session.execute(
            select(Agent.owner_user_id, Agent.owner_organization_id).where(Agent.id == agent_id)
        )
    ).first()
    if row is None or (row[0] is None and row[1] is None):
        return None
    return (None, row[1]) if row[1] is not None else (row[0], None)


async def add_earnings_entry(session: AsyncSession, **values: Any) -> None:
    entry = EarningsEntry(**values)
    session.add(entry)
    await session.flush()


async def earning_of(session: AsyncSession, job_id: uuid.UUID) -> EarningsEntry | None:
    return await session.scalar(
        select(EarningsEntry).where(EarningsEntry.job_id == job_id, EarningsEntry.kind == "earning")
    )


def _expected_share() -> Any:
    """What a job should have left on its seller's earnings account: a completed credit job
    (no payment node) of an owned listing, not refunded, earns its price less the fee."""
    earns = and_(
        Job.status == JobStatus.COMPLETED,
        Job.settled.is_(True),
        Job.payment_backend.is_(None),
        Job.refund == 0,
        Job.price > Job.fee,
        or_(Agent.owner_user_id.is_not(None), Agent.owner_organization_id.is_not(None)),
    )
    return case((earns, Job.price - Job.fee), else_=0)


async def earnings_against_captures(
    session: AsyncSession, limit: int
) -> tuple[int, int, list[tuple[uuid.UUID | None, int, int]]]:
    """Reconciliation of the earnings accounts: (the seller shares of captured credit jobs less
    reversals, the credits on the earnings accounts, and up to ``limit`` jobs where the two
    differ as (job id, expected, recorded)). An entry whose job is gone counts in the total."""
    per_job = (
        select(EarningsEntry.job_id, func.sum(EarningsEntry.credits).label("held"))
        .group_by(EarningsEntry.job_id)
        .subquery()
    )
    expected = _expected_share()
    recorded = func.coalesce(per_job.c.held, 0)
    jobs = (
        select(Job.id, expected, recorded)
        .join(Agent, Agent.id == Job.agent_id)
        .outerjoin(per_job, per_job.c.job_id == Job.id)
        .where(Job.price > 0, Job.payment_backend.is_(None))
    )
    differing = await session.execute(
        jobs.where(expected != recorded).order_by(Job.id).limit(limit)
    )
    total_expected = await session.scalar(
        select(func.coalesce(func.sum(expected), 0))
        .select_from(Job)
        .join(Agent, Agent.id == Job.agent_id)
        .where(Job.price > 0)
    )
    total_recorded = await session.scalar(select(func.coalesce(func.sum(EarningsEntry.credits), 0)))
    rows = [(row[0], int(row[1]), int(row[2])) for row in differing.all()]
    return int(total_expected or 0), int(total_recorded or 0), rows
