"""Lean writes (kit/writes.py): statements compiled once, run on the session's own connection —
part of its transaction (committed or rolled back with it), the columns' Python defaults applied
as a flush would, the same values as the ORM writes."""

from __future__ import annotations

import uuid

import pytest
from sqlalchemy import bindparam, select, update

from agora.kit.db import Database
from agora.kit.ids import uuid7
from agora.kit.reads import Prepared, read_one
from agora.kit.writes import PreparedWrite, RowInsert, insert_row, write
from agora.models import LedgerEntry, User, Workspace

ENTRIES = RowInsert(LedgerEntry.__table__)  # type: ignore[arg-type]
_WORKSPACES = Workspace.__table__.c
TAKE = PreparedWrite(
    update(Workspace.__table__)  # type: ignore[arg-type]
    .where(_WORKSPACES.id == bindparam("workspace_id"), _WORKSPACES.balance >= bindparam("amount"))
    .values(balance=_WORKSPACES.balance - bindparam("amount"), updated_at=bindparam("now"))
    .returning(_WORKSPACES.balance)
)
ENTRY = Prepared(select(LedgerEntry).where(LedgerEntry.id == bindparam("entry_id")))


async def _workspace(db: Database, balance: int) -> uuid.UUID:
    async with db.transaction() as session:
        user = User(id=uuid7(), email=f"writes-{uuid.uuid4().hex[:8]}@example.com", name="W")
        session.add(user)
        await session.flush()
        workspace = Workspace(id=uuid7(), name="W", kind="personal", owner_user_id=user.id)
        workspace.balance = balance
        session.add(workspace)
        return workspace.id


async def _balance(db: Database, workspace_id: uuid.UUID) -> int:
    async with db.transaction(write=False) as session:
        return int(
            await session.scalar(select(Workspace.balance).where(Workspace.id == workspace_id))
        )


async def test_writes_commit_and_roll_back_with_the_session(db: Database) -> None:
    from agora.kit.timeutil import utcnow

    workspace_id = await _workspace(db, 1_000)
    async with db.transaction() as session:
        # The first statement begins the transaction (through the session); the next ones run
        # on its connection.
        first = await write(session, TAKE, workspace_id=workspace_id, amount=100, now=utcnow())
        second = await write(session, TAKE, workspace_id=workspace_id, amount=100, now=utcnow())
        short = await write(session, TAKE, workspace_id=workspace_id, amount=10_000, now=utcnow())
        entry = await insert_row(
            session, ENTRIES, workspace_id=workspace_id, kind="grant", amount=5, balance_after=5
        )
    assert [r.balance for r in first + second] == [900, 800]
    assert short == []
    assert await _balance(db, workspace_id) == 800

    async def fails_after_its_writes() -> None:
        async with db.transaction() as session:
            await write(session, TAKE, workspace_id=workspace_id, amount=100, now=utcnow())
            await write(session, TAKE, workspace_id=workspace_id, amount=100, now=utcnow())
            await insert_row(
                session, ENTRIES, workspace_id=workspace_id, kind="grant", amount=1, balance_after=1
            )
            raise RuntimeError("something after the writes fails")

    with pytest.raises(RuntimeError):
        await fails_after_its_writes()
    assert await _balance(db, workspace_id) == 800  # nothing of the failed unit stayed

    async with db.transaction(write=False) as session:
        stored = await read_one(session, ENTRY, entry_id=entry.id)
    # The row returned is the row stored, defaults included (id, held_change, memo, created_at).
    assert stored is not None
    naive = {"created_at": entry.created_at.replace(tzinfo=None)}  # SQLite reads it back naive
    assert stored._asdict() in (entry._asdict(), {**entry._asdict(), **naive})
    assert isinstance(entry.id, uuid.UUID) and entry.held_change == 0 and entry.memo == ""


async def test_a_row_can_refer_to_an_object_still_pending_in_the_session(db: Database) -> None:
    async with db.transaction() as session:
        user = User(id=uuid7(), email=f"pending-{uuid.uuid4().hex[:8]}@example.com", name="P")
        session.add(user)
        await session.flush()
        workspace = Workspace(id=uuid7(), name="P", kind="personal", owner_user_id=user.id)
        session.add(workspace)  # not flushed yet
        entry = await insert_row(
            session, ENTRIES, workspace_id=workspace.id, kind="grant", amount=1, balance_after=1
        )
    async with db.transaction(write=False) as session:
        assert (await read_one(session, ENTRY, entry_id=entry.id)) is not None


def test_a_python_default_the_driver_would_not_run_is_refused() -> None:
    """An UPDATE through the session fills ``updated_at`` (its ``onupdate``); run on the driver
    it would not, so such a statement is refused when compiled."""
    from sqlalchemy.dialects import postgresql

    prepared = PreparedWrite(
        update(Workspace.__table__)  # type: ignore[arg-type]
        .where(_WORKSPACES.id == bindparam("workspace_id"))
        .values(balance=0)
    )
    with pytest.raises(TypeError, match="updated_at"):
        prepared.compiled(postgresql.asyncpg.dialect(), {"workspace_id": uuid7()})


def test_rows_name_only_their_columns() -> None:
    with pytest.raises(TypeError, match="no column"):
        ENTRIES.values({"workspace": uuid7()})
    with pytest.raises(TypeError):
        Prepared(update(User).values(name="x"))  # reads take SELECTs only
    with pytest.raises(TypeError):
        PreparedWrite(select(User.id))  # type: ignore[arg-type]


async def test_a_broken_constraint_is_sqlalchemys_integrity_error(db: Database) -> None:
    """Raised as through the session, so callers that catch it (a concurrent request's unique
    key) behave the same whichever way the statement ran."""
    from sqlalchemy.exc import IntegrityError

    workspace_id = await _workspace(db, 10)
    entry_id = uuid7()

    async def insert_twice() -> None:
        async with db.transaction() as session:
            for _ in range(2):  # the second runs on the transaction's connection
                await insert_row(
                    session,
                    ENTRIES,
                    id=entry_id,
                    workspace_id=workspace_id,
                    kind="grant",
                    amount=1,
                    balance_after=1,
                )

    with pytest.raises(IntegrityError):
        await insert_twice()
    async with db.transaction(write=False) as session:
        assert await read_one(session, ENTRY, entry_id=entry_id) is None  # rolled back
