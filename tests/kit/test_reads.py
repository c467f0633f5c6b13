"""Lean reads (kit/reads.py): the same rows as the session, only SELECTs, and a write unit
still sees its own changes."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

import pytest
from sqlalchemy import bindparam, select, update

from agora.kit.db import Database
from agora.kit.ids import uuid7
from agora.kit.reads import Prepared, read_all, read_one
from agora.models import User, Workspace

USER = Prepared(select(User.__table__).where(User.id == bindparam("user_id")))
USERS_IN = Prepared(
    select(User.id, User.email, User.terms_accepted)
    .where(User.id.in_(bindparam("ids", expanding=True)))
    .order_by(User.email)
)
WORKSPACE_OF = Prepared(
    select(Workspace.id, Workspace.balance, Workspace.created_at).where(
        Workspace.owner_user_id == bindparam("user_id")
    )
)


async def _two_users(db: Database) -> list[uuid.UUID]:
    ids = []
    async with db.transaction() as session:
        for n in range(2):
            user = User(id=uuid7(), email=f"reads-{n}-{uuid.uuid4().hex[:6]}@example.com")
            user.name, user.terms_accepted = "R", n == 0
            session.add(user)
            await session.flush()
            workspace = Workspace(id=uuid7(), name="R", kind="personal", owner_user_id=user.id)
            workspace.balance = 1_500_000 * (n + 1)
            session.add(workspace)
            ids.append(user.id)
    return ids


async def test_lean_rows_equal_the_sessions_rows(db: Database) -> None:
    ids = await _two_users(db)
    for prepared, params in (
        (USER, {"user_id": ids[0]}),
        (USERS_IN, {"ids": ids}),
        (USERS_IN, {"ids": [ids[1]]}),  # another list length: compiled again
        (WORKSPACE_OF, {"user_id": ids[1]}),
    ):
        async with db.transaction(write=False) as session:
            lean = await read_all(session, prepared, **params)
        async with db.transaction(write=True) as session:
            orm = list((await session.execute(prepared.statement, params)).all())
        assert [tuple(r) for r in lean] == [tuple(r) for r in orm]
        assert lean, "the statement found rows"
    async with db.transaction(write=False) as session:
        user = await read_one(session, USER, user_id=ids[0])
        missing = await read_one(session, USER, user_id=uuid7())
    assert isinstance(user.id, uuid.UUID) and user.id == ids[0]
    assert user.terms_accepted is True
    assert isinstance(user.created_at, datetime) and user.created_at.tzinfo in (UTC, None)
    assert missing is None


async def test_a_write_unit_reads_its_own_changes(db: Database) -> None:
    ids = await _two_users(db)
    async with db.transaction(write=True) as session:
        await session.execute(update(User).where(User.id == ids[0]).values(name="changed"))
        row = await read_one(session, USER, user_id=ids[0])
        assert row.name == "changed"  # on the session: the uncommitted change is seen
        await session.rollback()
    async with db.transaction(write=False) as session:
        assert (await read_one(session, USER, user_id=ids[0])).name == "R"


def test_only_selects_are_prepared() -> None:
    with pytest.raises(TypeError):
        Prepared(update(User).values(name="x"))  # type: ignore[arg-type]


@pytest.mark.postgres_only
async def test_a_dropped_connection_is_replaced(db: Database) -> None:
    """PostgreSQL ends the lean reads' connections (a restart, a failover, an admin): a read
    that meets a dead one fails as "database unavailable" (503, never 500) and the next one
    opens a new connection."""
    from sqlalchemy import text

    from agora.kit.reads import APPLICATION_NAME
    from agora.kit.unavailable import database_unavailable

    ids = await _two_users(db)
    async with db.transaction(write=False) as session:
        assert await read_one(session, USER, user_id=ids[0]) is not None
    async with db.engine.connect() as conn:
        ended = await conn.execute(
            text(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
                " WHERE application_name = :name AND datname = current_database()"
            ),
            {"name": APPLICATION_NAME},
        )
        assert ended.scalar_one() >= 1
    outcomes = []
    for _ in range(3):  # bounded: the pool has one slot per connection it opened
        try:
            async with db.transaction(write=False) as session:
                outcomes.append((await read_one(session, USER, user_id=ids[0])).id)
        except Exception as exc:
            outcomes.append("unavailable" if database_unavailable(exc) else repr(exc))
    assert outcomes[-1] == ids[0]
    assert all(o in (ids[0], "unavailable") for o in outcomes), outcomes


class _Conn:
    """A stand-in driver connection: the pool only asks whether it is closed and closes it."""

    def is_closed(self) -> bool:
        return False

    async def close(self) -> None:
        return None


async def test_a_connection_given_back_goes_to_the_longest_waiter() -> None:
    """All connections taken: they are handed out first come, first served. A request that
    gives one back and asks again at once (a history page's next statement) queues behind the
    waiters instead of taking it back before they run (which starved some: a p99 of 225 ms)."""
    import asyncio

    from agora.kit.reads import _Pool

    async def connect() -> _Conn:
        return _Conn()

    pool = _Pool(1, connect)
    order: list[str] = []
    first_holds = asyncio.Event()
    release_first = asyncio.Event()

    async def first() -> None:
        async with pool.connection():
            order.append("first")
            first_holds.set()
            await release_first.wait()
        async with pool.connection():  # again, without yielding in between
            order.append("first again")

    async def waiter(name: str) -> None:
        async with pool.connection():
            order.append(name)
            await asyncio.sleep(0)

    task = asyncio.create_task(first())
    await first_holds.wait()
    waiters = [asyncio.create_task(waiter(name)) for name in ("second", "third")]
    await asyncio.sleep(0)  # both are waiting now
    release_first.set()
    await asyncio.wait_for(asyncio.gather(task, *waiters), timeout=5)
    assert order == ["first", "second", "third", "first again"]


async def test_a_cancelled_waiter_passes_its_connection_on() -> None:
    import asyncio

    from agora.kit.reads import _Pool

    async def connect() -> _Conn:
        return _Conn()

    pool = _Pool(1, connect)
    holding = asyncio.Event()
    release = asyncio.Event()

    async def hold() -> None:
        async with pool.connection():
            holding.set()
            await release.wait()

    async def take() -> str:
        async with pool.connection():
            return "taken"

    holder = asyncio.create_task(hold())
    await holding.wait()
    cancelled = asyncio.create_task(take())
    waiting = asyncio.create_task(take())
    await asyncio.sleep(0)
    cancelled.cancel()
    release.set()
    assert await asyncio.wait_for(waiting, timeout=5) == "taken"
    await holder
    with pytest.raises(asyncio.CancelledError):
        await cancelled
    assert await asyncio.wait_for(take(), timeout=5) == "taken"  # the slot is not lost
