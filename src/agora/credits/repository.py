"""All SQL that moves credits. Every balance change is one conditional UPDATE, so concurrent
holds can never take a balance below zero (the CHECK constraint is the second line of defence)."""

from __future__ import annotations

import uuid
from typing import Any, Protocol

from sqlalchemy import bindparam, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from agora.kit.timeutil import utcnow
from agora.kit.writes import PreparedWrite, RowInsert, insert_row, write
from agora.models import LedgerEntry, Workspace
from agora.models.rows import LedgerEntryColumns


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
_WORKSPACES = Workspace.__table__.c


class _Balance(Protocol):
    @property
    def balance(self) -> int: ...


_TAKE_HOLD: PreparedWrite[_Balance] = PreparedWrite(
    update(Workspace.__table__)  # type: ignore[arg-type]
    .where(
        _WORKSPACES.id == bindparam("workspace_id"),
        _WORKSPACES.balance >= bindparam("amount"),
    )
    .values(
        balance=_WORKSPACES.balance - bindparam("amount"),
        held=_WORKSPACES.held + bindparam("amount"),
        updated_at=bindparam("now"),
    )
    .returning(_WORKSPACES.balance),
    shape=_Balance,
)


async def take_hold(session: AsyncSession, workspace_id: uuid.UUID, amount: int) -> int | None:
    """Move ``amount`` from available to held if the balance covers it; new balance or None."""
    rows = await write(session, _TAKE_HOLD, workspace_id=workspace_id, amount=amount, now=utcnow())
    return int(rows[0].balance) if rows else None


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


async def balances(session: AsyncSession, workspace_id: uuid.UUID) -> tuple[int, int] | None:
    row = (
        await session.execute(
            select(Workspace.balance, Workspace.held).where(Workspace.id == workspace_id)
        )
    ).first()
    return (int(row[0]), int(row[1])) if row else None


# Ledger entries are written once and never changed: inserted by a statement built once
# (kit/writes.py), not through the unit of work.
_ENTRY_INSERT: RowInsert[LedgerEntryColumns] = RowInsert(
    LedgerEntry.__table__,  # type: ignore[arg-type]
    shape=LedgerEntryColumns,
)


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
