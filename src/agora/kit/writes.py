"""Lean writes: statements compiled once, run on the session's own driver connection, inside
its transaction.

Through the session, a statement pays for the ORM's execute, SQLAlchemy's compiled cache and
execution context, its result machinery and two greenlet switches: 170 µs of CPU for a one-row
INSERT on PostgreSQL where the driver needs 80 µs; and a flush of ORM objects more still (a third
of a job creation's CPU went to flushing its three rows; docs/performance.md). The writes of the
hottest write (a job's creation: its job, event and ledger entry, the hold on the workspace, the
agent's job count) run here:

- ``PreparedWrite(insert(...) | update(...) | delete(...))``: a ``kit.reads.Prepared`` for
  writes — compiled once per dialect, the column types' bind and result processors applied.
- ``write(session, prepared, **params)``: runs it on the connection the session's transaction
  holds (so it is part of that transaction: committed or rolled back with it) and returns the
  rows it returns (``RETURNING``), named tuples. Before the transaction has begun on the driver
  (PostgreSQL begins lazily, with the first statement), and inside a SAVEPOINT, it goes through
  the session, which begins them.
- ``RowInsert(Model.__table__)`` and ``insert_row(session, target, **values)``: one row with
  every column — the given values, else the columns' Python defaults (``default=uuid7``,
  ``default=0`` …) exactly as a flush would apply them — returned as written.

The rows are not in the session's identity map: code that changes one later loads it (as any
later request would). Objects still pending in the session are flushed before a row is inserted,
so a row can refer to one. A broken constraint raises SQLAlchemy's ``IntegrityError``, as through
the session; a lost connection ``ConnectionError`` (503, kit/unavailable.py); any other error is
the driver's own.
"""

from __future__ import annotations

import sqlite3
from collections import namedtuple
from collections.abc import Callable
from typing import Any, Generic

import asyncpg
from sqlalchemy import Delete, Insert, Table, Update, event, insert
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import Session, SessionTransaction

from agora.kit.internals import driver_connection
from agora.kit.reads import Prepared, R, check_shape, connection_lost, row_of

_DRIVER_KEY = "agora_driver"  # in ``session.info`` while a transaction holds a connection
# A constraint the statement broke: raised as SQLAlchemy's IntegrityError, as through the session
# (callers catch it: a concurrent request's unique key).
_INTEGRITY_ERRORS = (asyncpg.IntegrityConstraintViolationError, sqlite3.IntegrityError)


class PreparedWrite(Prepared[R]):
    """An INSERT, UPDATE or DELETE compiled once per dialect (see ``kit.reads.Prepared``)."""

    kinds = (Insert, Update, Delete)


@event.listens_for(Session, "after_begin")
def _remember_driver(session: Session, _tx: SessionTransaction, connection: Connection) -> None:
    """The driver connection (and dialect) the session's transaction now holds."""
    session.info[_DRIVER_KEY] = (connection.dialect, driver_connection(connection))


@event.listens_for(Session, "after_transaction_end")
def _forget_driver(session: Session, transaction: SessionTransaction) -> None:
    if transaction.parent is None:  # the connection goes back to the pool
        session.info.pop(_DRIVER_KEY, None)


async def write(session: AsyncSession, prepared: Prepared[R], **params: Any) -> list[R]:
    """Run ``prepared`` in the session's transaction; the rows it returns (``RETURNING``). A
    write, or a SELECT of functions that write (``pg_notify``)."""
    held = session.info.get(_DRIVER_KEY)
    # In a SAVEPOINT (``begin_nested``) the session runs it: SQLAlchemy emits the SAVEPOINT with
    # the block's first statement, so one run past it would have none to roll back to.
    if held is not None and not session.in_nested_transaction():
        dialect, driver = held
        postgres = dialect.name == "postgresql"
        # SQLite's transaction began with the session's (kit.db: BEGIN [IMMEDIATE]).
        if not postgres or driver.is_in_transaction():
            compiled, values = prepared.compiled(dialect, params)
            try:
                if postgres:
                    records = await driver.fetch(compiled.sql, *values)
                else:
                    records = await driver.execute_fetchall(compiled.sql, values)
            except Exception as exc:
                if connection_lost(driver, exc):
                    raise ConnectionError("the database connection was lost") from exc
                if isinstance(exc, _INTEGRITY_ERRORS):  # as the session raises it (a unique key)
                    raise IntegrityError(compiled.sql, values, exc) from exc
                raise
            return [row_of(compiled, record) for record in records]
    result = await session.execute(prepared.statement, params)
    return list(result.all()) if result.returns_rows else []  # type: ignore[attr-defined,arg-type]


class RowInsert(Generic[R]):
    """The INSERT of one row of ``table``, with its columns' Python-side defaults. ``shape``:
    the Protocol (``models/rows.py``) the row written satisfies — ``insert_row`` returns it
    (``X: RowInsert[JobColumns] = RowInsert(Job.__table__, shape=JobColumns)``)."""

    def __init__(self, table: Table, *, shape: type | None = None) -> None:
        self.table = table
        check_shape(f"RowInsert({table.name})", shape, [c.key for c in table.columns])
        self.prepared = PreparedWrite(insert(table))  # every column, named by its key
        self.columns = tuple(column.key for column in table.columns)
        self._defaults: dict[str, Callable[[], Any]] = {}
        for column in table.columns:
            default = column.default
            if default is None:
                continue
            if default.is_callable:  # SQLAlchemy wraps the callable to take a context
                self._defaults[column.key] = _no_context(default.arg)  # type: ignore[attr-defined]
            elif default.is_scalar:
                self._defaults[column.key] = _constant(default.arg)  # type: ignore[attr-defined]
            else:  # a SQL expression or sequence: the database's to evaluate, not ours to echo
                raise TypeError(f"{table.name}.{column.key}: only Python defaults are supported")
        self.row: Any = namedtuple(f"{table.name}_row", self.columns)  # type: ignore[misc]

    def values(self, given: dict[str, Any]) -> dict[str, Any]:
        """Every column's value: the given one, else its default, else NULL."""
        unknown = given.keys() - self.columns
        if unknown:
            raise TypeError(f"{self.table.name} has no column {sorted(unknown)}")
        values = {}
        for name in self.columns:
            if name in given:
                values[name] = given[name]
            else:
                default = self._defaults.get(name)
                values[name] = default() if default is not None else None
        return values


def _no_context(wrapped: Callable[[Any], Any]) -> Callable[[], Any]:
    return lambda: wrapped(None)


def _constant(value: Any) -> Callable[[], Any]:
    # A mutable default (dict, list) is a fresh copy per row, as the model's ``default=dict``.
    if isinstance(value, (dict, list)):
        return lambda: type(value)(value)
    return lambda: value


async def insert_row(session: AsyncSession, target: RowInsert[R], **values: Any) -> R:
    """Insert one row into ``target``'s table in the session's transaction; the row written."""
    row = target.values(values)
    if session.new or session.dirty or session.deleted:
        await session.flush()  # what the row may refer to goes first
    await write(session, target.prepared, **row)
    written: R = target.row(**row)
    return written
