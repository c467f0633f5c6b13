"""Behind PgBouncer in transaction mode (``AGORA_DATABASE_PGBOUNCER=true``, kit/db.py): many
clients on two server connections run read units (autocommit), write units and lean reads
(kit/reads.py) side by side without a prepared statement of one client meeting another's, and
the pool settings reach the engine. PostgreSQL only (PgBouncer fronts PostgreSQL)."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Iterator

import pytest
from sqlalchemy import bindparam, select, update

from agora.kit.db import Database, PoolOptions
from agora.kit.ids import uuid7
from agora.kit.reads import Prepared, read_one
from agora.models import User
from agora.settings import Settings
from tests.conftest import POSTGRES_ADMIN_URL, unavailable
from tests.support.pgbouncer import PGBOUNCER, available, pgbouncer, through

pytestmark = pytest.mark.postgres_only

USER_NAME = Prepared(select(User.id, User.name).where(User.id == bindparam("user_id")))
CLIENTS = 24
ROUNDS = 15


@pytest.fixture(scope="module")
def bouncer() -> Iterator[int]:
    """PgBouncer with TWO server connections, so the clients share them all the time."""
    if not available():
        unavailable("PgBouncer", f"{PGBOUNCER} (apt-get install pgbouncer)")
    with pgbouncer(POSTGRES_ADMIN_URL, pool_size=2) as port:
        yield port


async def _user(db: Database) -> uuid.UUID:
    async with db.transaction() as session:
        user = User(id=uuid7(), email=f"bouncer-{uuid.uuid4().hex[:8]}@example.com")
        user.name, user.terms_accepted = "n0", True
        session.add(user)
    return user.id


async def _client(db: Database, user_id: uuid.UUID, n: int) -> None:
    for i in range(ROUNDS):
        async with db.transaction(write=False) as session:  # autocommit: no BEGIN
            found = await session.get(User, user_id)
            assert found is not None
            assert (await read_one(session, USER_NAME, user_id=user_id)) is not None  # lean
            rows = (
                await session.execute(select(User.id).where(User.email.like("bouncer-%")))
            ).all()
            assert rows
        async with db.transaction() as session:
            await session.execute(update(User).where(User.id == user_id).values(name=f"n{n}-{i}"))
            assert (await read_one(session, USER_NAME, user_id=user_id)).name == f"n{n}-{i}"  # type: ignore[union-attr]


async def test_clients_share_two_server_connections_through_pgbouncer(
    db: Database, bouncer: int
) -> None:
    user_id = await _user(db)
    pooled = Database(
        through(db.url, bouncer), pool=PoolOptions(size=CLIENTS, max_overflow=0, pgbouncer=True)
    )
    try:
        results = await asyncio.wait_for(
            asyncio.gather(
                *(_client(pooled, user_id, n) for n in range(CLIENTS)), return_exceptions=True
            ),
            timeout=120,
        )
    finally:
        await pooled.dispose()
    errors = [repr(r) for r in results if isinstance(r, BaseException)]
    assert errors == []


def test_the_pool_settings_reach_the_engine(db: Database) -> None:
    settings = Settings(
        database_url=db.url,
        database_pool_size=3,
        database_max_overflow=2,
        database_pool_timeout_seconds=7,
        database_pool_recycle_seconds=60,
        database_read_pool_size=5,
        database_pgbouncer=True,
    )
    configured = Database(settings.resolved_database_url, pool=settings.database.pool())
    pool = configured.engine.pool
    assert (pool.size(), pool._max_overflow, pool._timeout, pool._recycle) == (3, 2, 7, 60)  # type: ignore[attr-defined]
    assert configured.reads is not None and len(configured.reads._pool._idle) == 5
    assert configured.pool.pgbouncer
