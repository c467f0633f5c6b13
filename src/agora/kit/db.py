"""Engines, sessions and the one transaction owner per unit of work.

SQLite gets WAL, a busy timeout, foreign keys, and write transactions that take the write lock up
front (``BEGIN IMMEDIATE``) so two writers never deadlock on a lock upgrade; reads stay deferred.
Services only flush; whoever opened the transaction commits, then runs the after-commit hooks
(side effects such as waking the dispatcher must not fire for work that rolled back).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import structlog
from sqlalchemy import event, make_url
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)
from sqlalchemy.pool import ConnectionPoolEntry

log = structlog.get_logger(__name__)

AfterCommit = Callable[[], Awaitable[None] | None]
_WRITE_OPTION = "agora_write"


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


def _ensure_sqlite_directory(url: str) -> None:
    database = make_url(url).database
    if database and database != ":memory:" and not database.startswith("file:"):
        Path(database).expanduser().resolve().parent.mkdir(parents=True, exist_ok=True)


class Database:
    """One per process: the engine and the session factories for reads and writes."""

    def __init__(self, url: str, *, pool_size: int = 10, echo: bool = False) -> None:
        self.url = url
        self.is_sqlite = url.startswith("sqlite")
        kwargs: dict[str, Any] = {"echo": echo}
        if self.is_sqlite:
            kwargs["connect_args"] = {"timeout": 30}
            _ensure_sqlite_directory(url)
        else:
            kwargs.update(pool_size=pool_size, max_overflow=pool_size, pool_pre_ping=True)
        self.engine = create_async_engine(url, **kwargs)
        if self.is_sqlite:
            _configure_sqlite(self.engine)
        write_engine = self.engine.execution_options(**{_WRITE_OPTION: True})
        self._read = async_sessionmaker(self.engine, expire_on_commit=False, autoflush=False)
        self._write = async_sessionmaker(write_engine, expire_on_commit=False, autoflush=False)

    def session(self, *, write: bool) -> AsyncSession:
        return (self._write if write else self._read)()

    @asynccontextmanager
    async def transaction(self, *, write: bool = True) -> AsyncIterator[AsyncSession]:
        """A unit of work: commit on success, roll back on error, then after-commit hooks."""
        async with self.session(write=write) as session:
            try:
                yield session
                await session.commit()
            except BaseException:
                await session.rollback()
                raise
        await run_after_commit(session)

    async def dispose(self) -> None:
        await self.engine.dispose()


def on_commit(session: AsyncSession, hook: AfterCommit) -> None:
    """Run ``hook`` once the session's transaction has committed (never if it rolls back)."""
    session.info.setdefault("after_commit", []).append(hook)


async def run_after_commit(session: AsyncSession) -> None:
    hooks: list[AfterCommit] = session.info.pop("after_commit", [])
    for hook in hooks:
        try:
            result = hook()
            if result is not None:
                await result
        except Exception:  # a failed side effect must not undo a committed request
            log.exception("after_commit_hook_failed")
