"""Engines, sessions and the one transaction owner per unit of work.

SQLite gets WAL, a busy timeout, foreign keys, and write transactions that take the write lock up
front (``BEGIN IMMEDIATE``) so two writers never deadlock on a lock upgrade; reads stay deferred.
Services only flush; whoever opened the transaction commits, then runs the after-commit hooks
(side effects such as waking the dispatcher must not fire for work that rolled back).
"""

from __future__ import annotations

import asyncio
import functools
import json
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import orjson
import structlog
from sqlalchemy import bindparam, event, func, make_url, select, text
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)
from sqlalchemy.orm import Session
from sqlalchemy.pool import ConnectionPoolEntry

from agora.kit.reads import COMMITTED_KEY, READS_KEY, Prepared, Reads
from agora.kit.replica import READER_KEY, REPLICA_KEY, Replica, ReplicaOptions, RoutedSession
from agora.kit.writes import write

log = structlog.get_logger(__name__)


class Fanout(Protocol):
    """What ``kit.fanout.Fanout`` offers the writers (``kit.background.signal``)."""

    @property
    def publishes(self) -> bool: ...

    async def publish(self, topic: str, key: str | None) -> None: ...


AfterCommit = Callable[[], Awaitable[None] | None]
Bookkeeping = Callable[[AsyncSession], Awaitable[None]]
DATABASE_KEY = "agora.database"  # in every session's info: the Database that opened it
# Schedules ``run_after_commit(session)`` for later, e.g. ``BackgroundTasks.add_task``.
Defer = Callable[..., Any]
_WRITE_OPTION = "agora_write"
SQLITE_POOL_SIZE = 4


@dataclass(frozen=True)
class PoolOptions:
    """The connections one process holds on PostgreSQL (``AGORA_DATABASE_*``, docs/operations.md
    "Running at scale"): the engine's pool, its overflow, the wait for a connection and a
    connection's age; the lean reads' pool (``kit/reads.py``); ``pgbouncer``: PgBouncer in
    transaction mode between us and PostgreSQL."""

    size: int = 16
    max_overflow: int = 4  # 20 at most: the server is shared
    timeout_seconds: float = 30.0
    recycle_seconds: float = 1800.0
    read_size: int = 8
    pgbouncer: bool = False


def _unnamed_statement() -> str:
    """The statement's name: none (PostgreSQL's unnamed statement, see below)."""
    return ""


def pgbouncer_connect_args() -> dict[str, Any]:
    """asyncpg behind PgBouncer in transaction mode: a server connection serves one transaction
    of one client, then another client's, so nothing may outlive a transaction on it, and a
    statement outside a transaction (a read unit autocommits) must not rely on anything its
    previous round trip left on the server. asyncpg's statement cache and SQLAlchemy's are off,
    and SQLAlchemy's asyncpg dialect names the statements it prepares with
    ``prepared_statement_name_func``: here the empty name, PostgreSQL's unnamed statement, which
    asyncpg then parses again with the Bind/Execute of every run (one round trip, as with a
    cache miss). Uniquely named statements (what SQLAlchemy's docs suggest) were tried: in an
    autocommit read the statement was prepared on one server connection and run on another
    ("prepared statement … does not exist", asyncpg closes statements it dropped with a Sync in
    between), and each left a statement behind on a server connection until it closed."""
    return {
        "statement_cache_size": 0,
        "prepared_statement_cache_size": 0,
        "prepared_statement_name_func": _unnamed_statement,
    }


def json_loads(text: str | bytes) -> Any:
    """JSON columns are decoded with orjson (several times faster); what orjson refuses but
    the standard library reads (integers beyond 64 bits) falls back to ``json``."""
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        return json.loads(text)


def _configure_sqlite(engine: AsyncEngine) -> None:
    @event.listens_for(engine.sync_engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: ConnectionPoolEntry) -> None:
        # Let us emit BEGIN ourselves instead of the driver's implicit deferred BEGIN.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA busy_timeout=30000")
        cursor.close()

    @event.listens_for(engine.sync_engine, "begin")
    def _on_begin(conn: Connection) -> None:
        write = conn.get_execution_options().get(_WRITE_OPTION, False)
        conn.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")


class WriteInReadOnlyUnit(RuntimeError):
    """A statement other than SELECT in a read unit of work (a GET request, ``write=False``)."""


def _refuse_writes(engine: AsyncEngine) -> None:
    """Reads autocommit on PostgreSQL, so a write there could not be rolled back with its
    request: refuse it (a programming error, caught by the tests)."""

    @event.listens_for(engine.sync_engine, "before_cursor_execute")
    def _only_reads(
        _conn: Connection, _cursor: Any, statement: str, *_args: Any, **_kwargs: Any
    ) -> None:
        head = statement.lstrip()[:6].upper()
        if head not in ("SELECT", "SHOW"):
            raise WriteInReadOnlyUnit(f"a read-only unit of work ran: {statement[:60]!r}")


def _ensure_sqlite_directory(url: str) -> None:
    database = make_url(url).database
    if database and database != ":memory:" and not database.startswith("file:"):
        Path(database).expanduser().resolve().parent.mkdir(parents=True, exist_ok=True)


class Database:
    """One per process: the engine and the session factories for reads and writes."""

    def __init__(
        self,
        url: str,
        *,
        pool_size: int | None = None,
        pool: PoolOptions | None = None,
        echo: bool = False,
        replica: ReplicaOptions | None = None,
    ) -> None:
        self.url = url
        self.is_sqlite = url.startswith("sqlite")
        if pool is None:  # ``pool_size`` alone (tests, benchmarks): the overflow a quarter of it
            size = pool_size or PoolOptions.size
            pool = PoolOptions(size=size, max_overflow=size // 4)
        self.pool = pool
        # This process's cross-process wake-ups (kit/fanout.py), set by the composition root;
        # ``kit.background.signal`` publishes through it when it carries them over Redis.
        self.fanout: Fanout | None = None
        # Statement parameters carry secrets (webhook secrets and URLs, token hashes, share
        # tokens): never in a log line or an error's text (docs/security.md, "What is logged").
        kwargs: dict[str, Any] = {
            "echo": echo,
            "hide_parameters": True,
            "json_deserializer": json_loads,
        }
        if self.is_sqlite:
            kwargs["connect_args"] = {"timeout": 30}
            _ensure_sqlite_directory(url)
            if ":memory:" not in url:
                # A file: few connections. Each is a thread (aiosqlite) contending for the GIL and
                # SQLite runs one writer at a time; 4 (+1) served 16 concurrent requests with less
                # CPU per request and a third of the p99 that 16 (+4) had (docs/performance.md).
                kwargs.update(pool_size=SQLITE_POOL_SIZE, max_overflow=1)
        else:
            # No pre-ping (a round trip per checkout); connections are recycled, and a dead one
            # fails its request, which the client retries (docs/performance.md).
            # A pool as large as the concurrency one process serves (16 by default): an overflow
            # connection is opened and closed per checkout, which cost more than the queries it
            # served (AGORA_DATABASE_POOL_SIZE, _MAX_OVERFLOW, _POOL_TIMEOUT_SECONDS,
            # _POOL_RECYCLE_SECONDS).
            kwargs.update(
                pool_size=pool.size,
                max_overflow=pool.max_overflow,
                pool_timeout=pool.timeout_seconds,
                pool_pre_ping=False,
                pool_recycle=pool.recycle_seconds,
            )
            if pool.pgbouncer:
                kwargs["connect_args"] = pgbouncer_connect_args()
        self.engine = create_async_engine(url, **kwargs)
        if self.is_sqlite:
            _configure_sqlite(self.engine)
        write_engine = self.engine.execution_options(**{_WRITE_OPTION: True})
        read_engine = self.engine
        if not self.is_sqlite:
            # PostgreSQL runs READ COMMITTED: every statement already reads its own snapshot, so a
            # read-only unit of work loses nothing without BEGIN/COMMIT and saves two round trips.
            read_engine = self.engine.execution_options(isolation_level="AUTOCOMMIT")
            _refuse_writes(read_engine)
        self._read = async_sessionmaker(read_engine, expire_on_commit=False, autoflush=False)
        # The hottest reads, on the driver's own connections (kit/reads.py); an in-memory
        # SQLite database exists only on the engine's connection, so it reads through it.
        in_memory = self.is_sqlite and ":memory:" in url
        self.reads = (
            None
            if in_memory
            else Reads(
                url,
                self.engine.dialect,
                json_loads,
                pool_size=pool.read_size,
                statement_cache=not pool.pgbouncer,
            )
        )
        self._write = async_sessionmaker(write_engine, expire_on_commit=False, autoflush=False)
        self.replica = None if replica is None else self._replica(replica, kwargs)

    def _replica(self, options: ReplicaOptions, kwargs: dict[str, Any]) -> Replica:
        """The read replica's engine (autocommit, SELECTs only, like the primary's reads) and
        lean reads; read sessions route to it (kit/replica.py)."""
        if self.is_sqlite or self.reads is None:
            raise ValueError("a read replica needs PostgreSQL as the primary database")
        # Pre-ping: a replica restarted or failed over leaves dead connections that a read
        # would otherwise fail on (its reads then retry on the primary, kit/replica.py).
        engine = create_async_engine(options.url, **{**kwargs, "pool_pre_ping": True})
        reading = engine.execution_options(isolation_level="AUTOCOMMIT")
        _refuse_writes(reading)
        self._read.configure(sync_session_class=RoutedSession)
        return Replica(options, reading, self.reads, json_loads)

    def session(self, *, write: bool) -> AsyncSession:
        session = self._write() if write else self._read()
        session.info[DATABASE_KEY] = self
        if self.reads is not None:  # Prepared statements run lean (kit/reads.py): every one
            session.info[COMMITTED_KEY] = self.reads  # in a read unit, read_committed's in both
            if not write:
                session.info[READS_KEY] = self.reads
        if self.replica is not None and not write:
            session.info[REPLICA_KEY] = self.replica
        return session

    @asynccontextmanager
    async def transaction(
        self, *, write: bool = True, after: Defer | None = None
    ) -> AsyncIterator[AsyncSession]:
        """The unit of work: commit on success, roll back on error, then after-commit hooks.

        The only transaction owner (requests, workers, CLI commands all come through here).
        Hooks run inline once the connection is released, or are handed to ``after`` (a
        request's route adds them to its response's background work: ``kit.units``).
        """
        session = self.session(write=write)
        try:
            yield session
            if _has_work(session):  # else nothing ran or waits: nothing to commit
                await session.commit()
                if write and self.replica is not None and READER_KEY in session.info:
                    # before the answer: the writer's next read must find it (read-your-writes)
                    await self.replica.note_write(session.info[READER_KEY])
        except BaseException:
            await session.rollback()
            raise
        finally:
            # Commit and rollback give the connection back; only a rollback cut short (a
            # cancellation) leaves one held, released by a close that no cancellation cuts short
            # (``AsyncSession.__aexit__`` does that always: a task and a shield per request).
            # A session that holds none is closed in place (no I/O): its objects go at once.
            if session.in_transaction():
                await asyncio.shield(asyncio.create_task(session.close()))
            else:
                session.sync_session.close()
        if after is None:
            await run_after_commit(session)
        elif session.info.get("after_commit"):
            after(run_after_commit, session)

    async def ping(self) -> None:
        """One round trip to the database (readiness checks)."""
        async with self.engine.connect() as conn:
            await conn.execute(text("SELECT 1"))

    async def dispose(self) -> None:
        if self.replica is not None:
            await self.replica.close()
        if self.reads is not None:
            await self.reads.close()
        await self.engine.dispose()


def _has_work(session: AsyncSession) -> bool:
    """Whether committing would do anything: a transaction began, objects wait for a flush,
    or notifications wait to be sent."""
    pending = session.new or session.dirty or session.deleted
    return session.in_transaction() or bool(pending) or _PENDING_NOTIFY in session.info


async def add_unless_taken(session: AsyncSession, row: object) -> bool:
    """Insert ``row`` in a SAVEPOINT; False (and the rest of the transaction intact) when a
    unique constraint refuses it: a concurrent writer took that place first."""
    try:
        async with session.begin_nested():
            session.add(row)
            await session.flush()
    except IntegrityError:
        return False
    return True


def on_commit(session: AsyncSession, hook: AfterCommit) -> None:
    """Run ``hook`` once the session's transaction has committed (never if it rolls back)."""
    session.info.setdefault("after_commit", []).append(hook)


def write_after_commit(session: AsyncSession, work: Bookkeeping) -> None:
    """Once this transaction commits, run ``work(session)`` in its own short write transaction
    (never if it rolls back): bookkeeping that a read may not do itself (a key's last use, the
    notifications of a job read on opening it). In a request it runs after the answer is sent."""
    database: Database = session.info[DATABASE_KEY]

    async def run() -> None:
        async with database.transaction() as own:
            await work(own)

    on_commit(session, run)


async def run_after_commit(session: AsyncSession) -> None:
    hooks: list[AfterCommit] = session.info.pop("after_commit", [])
    for hook in hooks:
        try:
            result = hook()
            if result is not None:
                await result
        except Exception:  # a failed side effect must not undo a committed request
            log.exception("after_commit_hook_failed")


_PENDING_NOTIFY = "agora_notify"


async def notify(session: AsyncSession, channel: str, payload: str | None = None) -> None:
    """PostgreSQL ``NOTIFY channel[, payload]`` in this transaction (delivered only if it
    commits; PostgreSQL folds identical notifications of one transaction into one). Sent with
    the transaction's other notifications in ONE statement right before its commit (a job's
    creation sends two: one round trip saved, docs/performance.md)."""
    if not channel.replace("_", "").isalnum():
        raise ValueError(f"not a channel name: {channel!r}")
    pending: dict[tuple[str, str], None] = session.info.setdefault(_PENDING_NOTIFY, {})
    pending[(channel, payload or "")] = None


async def send_notifications(session: AsyncSession) -> None:
    """Send the notifications ``notify`` queued so far now rather than right before the commit
    (PostgreSQL still delivers them only if the transaction commits), on the session's
    connection (kit/writes.py). For a writer about to take a contended row lock: the statement
    then runs before the lock is held, not while it is (docs/performance.md, job creation)."""
    queued = _queued_notifications(session.info)
    if queued is not None:
        statement, values = queued
        await write(session, statement, **values)


@event.listens_for(Session, "before_commit")
def _send_pending_notifications(session: Session) -> None:
    queued = _queued_notifications(session.info)
    if queued is not None:
        statement, values = queued
        session.execute(statement.statement, values)


def _queued_notifications(info: dict[Any, Any]) -> tuple[Prepared, dict[str, str]] | None:
    """One ``SELECT pg_notify(…), …`` for the queued notifications (taken off the queue) and
    its values."""
    pending: dict[tuple[str, str], None] | None = info.pop(_PENDING_NOTIFY, None)
    if not pending:
        return None
    values = {}
    for n, (channel, payload) in enumerate(pending):
        values[f"c{n}"], values[f"p{n}"] = channel, payload
    return _notify_statement(len(pending)), values


@functools.cache
def _notify_statement(count: int) -> Prepared:
    """``SELECT pg_notify(:c0, :p0), …`` for ``count`` notifications, compiled once."""
    calls = [func.pg_notify(bindparam(f"c{n}"), bindparam(f"p{n}")) for n in range(count)]
    return Prepared(select(*calls))
