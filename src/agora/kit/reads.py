"""Lean reads: SELECT statements, compiled once, on the driver's own connections.

A read through the ORM session pays for the session, its transaction, the statement's cache
key, the ORM's result machinery and a greenlet switch per await: 0.35 ms of CPU for one row by
primary key on PostgreSQL and 0.9 ms on SQLite (a thread hop each for BEGIN, the statement, the
fetch and COMMIT), three to five times what the driver itself needs (docs/performance.md).
The hottest reads (a job by id, users/me, the agent listing, the history page) run here:

- ``Prepared(select(...))``: a SQLAlchemy Core SELECT, written in the repositories like any
  other, compiled once per dialect into the driver's SQL, its parameter order and the column
  types' bind and result processors (the same conversions the ORM applies: UUIDs, times, JSON,
  booleans), its rows plain named tuples.
- ``Reads``: a small pool of the driver's connections (asyncpg; aiosqlite on SQLite, one thread
  hop per statement), in autocommit: each statement reads its own snapshot — what READ
  COMMITTED gives every PostgreSQL read unit already (``kit.db``). Only SELECTs are accepted.

Repositories call ``read_all(session, prepared, ...)`` / ``read_one``: in a read unit of work
(``Database.transaction(write=False)``: GET requests, read-only tools) the statement runs here;
in a write unit it runs on the session, so it sees that transaction's own changes. Either way the
rows have the same names and values (a named tuple here, a SQLAlchemy ``Row`` there).
"""

from __future__ import annotations

import asyncio
import functools
from collections import deque, namedtuple
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic

import aiosqlite
import asyncpg
from sqlalchemy import make_url
from sqlalchemy.engine import Dialect
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.sql import Select

from agora.kit.internals import Processor, compile_for_driver

if TYPE_CHECKING:  # a default needs typing_extensions' TypeVar (mypy's stubs have it)
    from typing_extensions import TypeVar

    R = TypeVar("R", default=Any)
else:
    from typing import TypeVar

    R = TypeVar("R")

READ_POOL_SIZE = 8  # connections per process, beside the session engine's pool (the default)
APPLICATION_NAME = "agora-reads"  # how they show in pg_stat_activity
# Each aiosqlite connection is a thread contending for the GIL: under 16 concurrent requests two
# served most (job by id 1 831 req/s, 0.57 ms CPU; four: 1 541, 0.70 ms; one: 1 650 and a
# starved history p99 of 0.9 s; docs/performance.md).
SQLITE_READ_POOL_SIZE = 2


@dataclass(frozen=True)
class _Compiled:
    sql: str
    names: tuple[str, ...]  # the bound parameters in the driver's order
    fixed: dict[str, Any]  # the values the statement carries itself (a LIKE pattern …)
    binds: tuple[Any, ...]  # the column types' bind processors (None: the value as it is)
    results: tuple[Processor, ...]
    row: type

    @functools.cached_property
    def converts(self) -> bool:
        """Whether any column has a result processor (on asyncpg most statements have none)."""
        return any(process is not None for process in self.results)


def shape_names(shape: type) -> set[str]:
    """The attribute names a row shape (a Protocol of ``models/rows.py``, a NamedTuple) has."""
    names: set[str] = set(getattr(shape, "_fields", ()))
    for klass in shape.__mro__:
        if klass.__module__ in ("typing", "typing_extensions", "builtins", "abc"):
            continue
        names.update(n for n, v in vars(klass).items() if isinstance(v, property))
        names.update(n for n in getattr(klass, "__annotations__", {}) if not n.startswith("_"))
    return names


def check_shape(owner: str, shape: type | None, columns: Sequence[str]) -> None:
    """Refuse (at import) a statement whose rows lack a column of its declared shape."""
    if shape is None:
        return
    missing = shape_names(shape) - set(columns)
    if missing:
        raise TypeError(f"{owner}: the rows have no {sorted(missing)} of {shape.__name__}")


def _returned_keys(statement: Any) -> list[str]:
    return list(statement.exported_columns.keys())


class Prepared(Generic[R]):
    """A Core SELECT compiled once per dialect (and per length of each list parameter); the
    writes' kind is ``kit.writes.PreparedWrite``. ``shape``: the Protocol (``models/rows.py``)
    its rows satisfy — ``read_all`` and ``read_one`` return it, and a statement without one of
    its columns is refused here. Declare the type: ``X: Prepared[JobColumns] = Prepared(...)``."""

    kinds: tuple[type, ...] = (Select,)

    def __init__(self, statement: Any, *, shape: type | None = None) -> None:
        if not isinstance(statement, self.kinds):
            names = " or ".join(kind.__name__.upper() for kind in self.kinds)
            raise TypeError(f"{type(self).__name__} takes a {names}")
        self.statement: Any = statement
        self.shape = shape
        if shape is not None:  # the SELECT's columns, or what a write RETURNs
            check_shape(type(self).__name__, shape, _returned_keys(self.statement))
        self._compiled: dict[tuple[str, tuple[int, ...]], _Compiled] = {}

    def compiled(self, dialect: Dialect, params: dict[str, Any]) -> tuple[_Compiled, list[Any]]:
        sizes = tuple(len(v) for v in params.values() if isinstance(v, (list, tuple)))
        key = (dialect.name, sizes)
        compiled = self._compiled.get(key)
        if compiled is None:
            compiled = self._compile(dialect, params)
            self._compiled[key] = compiled
        values = []
        fixed = compiled.fixed
        for name, process in zip(compiled.names, compiled.binds, strict=True):
            value = fixed[name] if name in fixed else _expanded_value(name, params)
            values.append(process(value) if process is not None else value)
        return compiled, values

    def _compile(self, dialect: Dialect, params: dict[str, Any]) -> _Compiled:
        driver = compile_for_driver(self.statement, dialect, params)
        row = namedtuple("Row", driver.columns, rename=True)  # type: ignore[misc]
        return _Compiled(driver.sql, driver.names, driver.fixed, driver.binds, driver.results, row)


def _expanded_value(name: str, params: dict[str, Any]) -> Any:
    """``name``'s value; an expanded list parameter's names are ``name_1``, ``name_2`` …"""
    if name in params:
        return params[name]
    base, _, index = name.rpartition("_")
    return params[base][int(index) - 1]


class _Pool:
    """A few driver connections for single statements: taken and given back without the
    general pools' bookkeeping (asyncpg's shields its release in a task: a fifth of a lean
    read's CPU). Last in, first out, so the warm connections serve and no more are opened than
    the concurrency needs; first come, first served when all are taken: a connection given back
    goes straight to the longest waiter (an ``asyncio.Queue`` lets a request that has not
    waited take it first, and a waiter woken for nothing queues again at the end: a history
    page's p99 of 225 ms; docs/performance.md). A free slot is ``None`` until a connection is
    opened for it; a connection found closed, or that failed or was left mid-statement by a
    cancelled request, is closed and its slot freed (``tests/kit/test_reads.py``)."""

    def __init__(self, size: int, connect: Callable[[], Awaitable[Any]]) -> None:
        self._connect = connect
        self._idle: list[Any] = [None] * size  # a stack: the last given back is taken first
        self._waiters: deque[asyncio.Future[Any]] = deque()
        self._open: set[Any] = set()

    @asynccontextmanager
    async def connection(self) -> AsyncIterator[Any]:
        conn = self._idle.pop() if self._idle else await self._wait()
        if conn is not None and _closed(conn):  # ended by the server since its last statement
            await self._drop(conn)
            conn = None
        if conn is None:
            try:
                conn = await self._connect()
            except BaseException:
                self._give_back(None)
                raise
            self._open.add(conn)
        try:
            yield conn
        except asyncio.CancelledError:
            await self._drop(conn, free_slot=True)
            raise
        except Exception as exc:
            if not connection_lost(conn, exc):
                self._give_back(conn)  # a statement's own error: the connection is fine
                raise
            await self._drop(conn, free_slot=True)
            if isinstance(exc, _CONNECTION_ERRORS):
                raise
            # e.g. asyncpg's InterfaceError("connection is closed"): what it means is that the
            # database is unreachable (a 503 with Retry-After, kit/unavailable.py)
            raise ConnectionError("the database connection was lost") from exc
        self._give_back(conn)

    async def _wait(self) -> Any:
        waiter: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._waiters.append(waiter)
        try:
            return await waiter
        except asyncio.CancelledError:
            if waiter.done() and not waiter.cancelled():
                self._give_back(waiter.result())  # handed over as we were cancelled: pass it on
            elif waiter in self._waiters:
                self._waiters.remove(waiter)
            raise

    def _give_back(self, conn: Any) -> None:
        """``conn`` (or a free slot: ``None``) to the longest waiter, else to the idle stack."""
        while self._waiters:
            waiter = self._waiters.popleft()
            if not waiter.done():
                waiter.set_result(conn)
                return
        self._idle.append(conn)

    async def _drop(self, conn: Any, *, free_slot: bool = False) -> None:
        self._open.discard(conn)
        if free_slot:
            self._give_back(None)
        await _close_quietly(conn)

    async def close(self) -> None:
        for conn in list(self._open):
            await _close_quietly(conn)
        self._open.clear()


_CONNECTION_ERRORS = (OSError, asyncpg.PostgresConnectionError)


def _closed(conn: Any) -> bool:
    """asyncpg knows when its connection has ended; an SQLite file's connection does not end
    under us."""
    is_closed = getattr(conn, "is_closed", None)
    return bool(is_closed()) if is_closed is not None else False


async def _close_quietly(conn: Any) -> None:
    try:
        await conn.close()
    except Exception:  # already gone: nothing to release
        return


class Reads:
    """Runs ``Prepared`` statements on a pool of driver connections (see the module)."""

    def __init__(
        self,
        url: str,
        dialect: Dialect,
        json_loads: Callable[[Any], Any],
        *,
        pool_size: int = READ_POOL_SIZE,
        statement_cache: bool = True,
    ) -> None:
        """``pool_size``: connections on PostgreSQL (AGORA_DATABASE_READ_POOL_SIZE);
        ``statement_cache`` off behind PgBouncer in transaction mode (``kit.db.PoolOptions``):
        asyncpg then runs each statement unnamed, parsed and run with no Sync between (one
        server connection), so nothing stays prepared on a server connection another client
        gets next."""
        self.url = url
        self.pool_size, self.statement_cache = pool_size, statement_cache
        self.dialect = dialect
        self.is_sqlite = url.startswith("sqlite")
        self._json_loads = json_loads
        # Called with each statement's SQL before it runs: what an engine's
        # ``before_cursor_execute`` is to the session's statements (tests count statements per
        # page with both: tests/contract/test_list_statements.py). Empty in production.
        self.observers: list[Callable[[str], None]] = []
        if self.is_sqlite:
            self._pool = _Pool(SQLITE_READ_POOL_SIZE, self._connect_sqlite)
        else:
            self._pool = _Pool(pool_size, self._connect_postgres)

    async def all(self, prepared: Prepared[R], **params: Any) -> list[R]:
        if not isinstance(prepared.statement, Select):  # autocommit: a write would stand alone
            raise TypeError("only SELECTs run on the lean reads' connections")
        compiled, values = prepared.compiled(self.dialect, params)
        for observe in self.observers:
            observe(compiled.sql)
        async with self._pool.connection() as conn:
            if self.is_sqlite:
                raw = await conn.execute_fetchall(compiled.sql, values)
            else:
                raw = await conn.fetch(compiled.sql, *values)
        return [row_of(compiled, record) for record in raw]

    async def one(self, prepared: Prepared[R], **params: Any) -> R | None:
        rows = await self.all(prepared, **params)
        return rows[0] if rows else None

    async def _connect_postgres(self) -> asyncpg.Connection:
        url = make_url(self.url).set(drivername="postgresql")
        conn = await asyncpg.connect(
            url.render_as_string(hide_password=False),
            server_settings={"application_name": APPLICATION_NAME},
            **({} if self.statement_cache else {"statement_cache_size": 0}),
        )
        # JSON as the engine decodes it (kit.db.json_loads); binary format, as SQLAlchemy does.
        loads = self._json_loads
        await conn.set_type_codec(
            "json", encoder=str.encode, decoder=loads, schema="pg_catalog", format="binary"
        )
        await conn.set_type_codec(
            "jsonb",
            encoder=lambda text: b"\x01" + text.encode(),
            decoder=lambda data: loads(data[1:]),
            schema="pg_catalog",
            format="binary",
        )
        return conn

    async def _connect_sqlite(self) -> aiosqlite.Connection:
        path = make_url(self.url).database or ""
        conn = await aiosqlite.connect(path, timeout=30, isolation_level=None)
        await conn.execute("PRAGMA busy_timeout=30000")
        return conn

    async def close(self) -> None:
        await self._pool.close()


def connection_lost(conn: Any, exc: BaseException) -> bool:
    """Whether ``exc``, raised by a statement on the driver connection ``conn``, means the
    connection is gone (not an error of the statement)."""
    return _closed(conn) or isinstance(exc, _CONNECTION_ERRORS)


def row_of(compiled: _Compiled, record: Sequence[Any]) -> Any:
    if not compiled.converts:  # the record's values as they are (a named tuple of them)
        return tuple.__new__(compiled.row, record)
    return compiled.row._make(  # type: ignore[attr-defined]
        value if process is None or value is None else process(value)
        for process, value in zip(compiled.results, record, strict=True)
    )


READS_KEY = "agora_reads"  # in a read unit's ``session.info``: its database's ``Reads``
COMMITTED_KEY = "agora_committed_reads"  # in every unit's ``session.info`` (read_committed)


async def read_all(session: AsyncSession, prepared: Prepared[R], **params: Any) -> list[R]:
    """The rows of ``prepared``: lean in a read unit of work, on the session in a write unit."""
    reads: Reads | None = session.info.get(READS_KEY)
    if reads is not None:
        return await reads.all(prepared, **params)
    rows: list[R] = list((await session.execute(prepared.statement, params)).all())  # type: ignore[arg-type]
    return rows


async def read_one(session: AsyncSession, prepared: Prepared[R], **params: Any) -> R | None:
    rows = await read_all(session, prepared, **params)
    return rows[0] if rows else None


async def read_committed(session: AsyncSession, prepared: Prepared[R], **params: Any) -> R | None:
    """``read_one``, lean even in a write unit: what is committed, outside the unit's
    transaction. For a row a write unit only checks before it writes anything (the agent a job
    is created for): under READ COMMITTED the unit's own SELECT would see the same, and on
    SQLite the write lock is then taken later and held shorter."""
    reads: Reads | None = session.info.get(COMMITTED_KEY)
    if reads is None:
        return await read_one(session, prepared, **params)
    rows = await reads.all(prepared, **params)
    return rows[0] if rows else None
