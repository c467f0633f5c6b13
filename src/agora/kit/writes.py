"""Lean inserts: one row by a Core INSERT built once per table, in the session's transaction.

The ORM's unit of work (``session.add`` + flush) pays for instance state, the identity map, a
flush plan and its bookkeeping: about a third of a job's creation CPU went to flushing its
three rows (job, ledger entry, event; docs/performance.md). Rows that are written once and not
changed through the session afterwards (a job at creation, ledger entries, job events) are
inserted here instead:

- ``RowInsert(Model.__table__)``: the INSERT of every column, built once; the columns' Python
  defaults (``default=uuid7``, ``default=0`` …) applied to what the caller leaves out, exactly
  as a flush would.
- ``insert_row(session, target, **values)``: runs it and returns the row as written, a named
  tuple of every column (responses read it like a lean read's row: ``kit.schemas``).

The row is not in the session's identity map: code that changes it later loads it (as it would
in any later request). Objects still pending in the session are flushed first, so a row can
refer to one (a ledger entry to a workspace created in the same transaction).
"""

from __future__ import annotations

from collections import namedtuple
from collections.abc import Callable
from typing import Any

from sqlalchemy import Table, insert
from sqlalchemy.ext.asyncio import AsyncSession


class RowInsert:
    """The INSERT of one row of ``table``, with its columns' Python-side defaults."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.statement = insert(table)
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
        self.row = namedtuple(f"{table.name}_row", self.columns)  # type: ignore[misc]

    def values(self, given: dict[str, Any]) -> dict[str, Any]:
        """Every column's value: the given one, else its default, else NULL."""
        unknown = given.keys() - set(self.columns)
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


async def insert_row(session: AsyncSession, target: RowInsert, **values: Any) -> Any:
    """Insert one row into ``target``'s table in the session's transaction; the row written."""
    row = target.values(values)
    if session.new or session.dirty or session.deleted:
        await session.flush()  # what the row may refer to goes first
    await session.execute(target.statement, row)
    return target.row(**row)
