"""Run Alembic migrations from code (`agora migrate`; `agora serve` on the embedded database).

On PostgreSQL an advisory lock makes concurrent starts safe: one process migrates, the others wait.

Revision ids are the files' names (``0004_accounts``), in application order. Before that, ids
were bare numbers applied out of order (0001→0002→0003→0006→0011→0005→0007); a database migrated
then holds such an id in ``alembic_version``, and ``RENAMED_REVISIONS`` maps it to its new name
before Alembic looks (no schema changes: the renamed files are the same migrations).
"""

from __future__ import annotations

import re
import tempfile
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import create_engine, inspect, text
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

MIGRATIONS_DIR = Path(__file__).resolve().parent.parent / "migrations"
_ADVISORY_LOCK_ID = 7_206_551_393  # arbitrary, constant: "agora migrations"

# Trigram (pg_trgm GIN) indexes for the history feed's `q` search exist only on PostgreSQL
# (migration 0002); SQLite has no equivalent, so they are not in the models and model/migration
# comparison leaves them out.
POSTGRES_ONLY_INDEXES = frozenset(
    {
        "ix_tasks_name_trgm",
        "ix_tasks_description_trgm",
        "ix_jobs_name_trgm",
        "ix_conversations_title_trgm",
        "ix_conversations_description_trgm",
    }
)


# Old revision id → the same migration's id now. The old ids are bare numbers and the new ones
# carry the file's name, so an id is never both (an old "0005" is not the new "0005_…").
RENAMED_REVISIONS: dict[str, str] = {
    "0001": "0001_initial_schema",
    "0002": "0002_history_search_indexes",
    "0003": "0003_feed_project_indexes",
    "0006": "0004_accounts",
    "0011": "0005_developer_listings",
    "0005": "0006_coworkers_task_workflow",
    "0007": "0007_job_payments",
}


def include_object(
    _obj: object, name: str | None, type_: str, _reflected: bool, _compare_to: object
) -> bool:
    """Alembic hook: compare everything but the PostgreSQL-only indexes."""
    return not (type_ == "index" and name in POSTGRES_ONLY_INDEXES)


MAX_REVISION_LENGTH = 32  # alembic_version.version_num is VARCHAR(32)


def alembic_config(location: Path = MIGRATIONS_DIR) -> Config:
    """Alembic's configuration: the migrations under ``location``; a new one is written from the
    house template (``script.py.mako``) to ``versions/<revision id>.py``, dated in UTC."""
    config = Config()
    config.set_main_option("script_location", str(location))
    config.set_main_option("file_template", "%%(rev)s")
    config.set_main_option("timezone", "UTC")
    return config


def _rename_old_revisions(connection: Connection) -> None:
    """Rewrite a pre-rename revision id in ``alembic_version`` to its new id (in the caller's
    transaction, so a failed upgrade leaves the old id)."""
    if not inspect(connection).has_table("alembic_version"):
        return
    for (current,) in connection.execute(text("SELECT version_num FROM alembic_version")).all():
        renamed = RENAMED_REVISIONS.get(current)
        if renamed is not None:
            connection.execute(
                text("UPDATE alembic_version SET version_num = :new WHERE version_num = :old"),
                {"new": renamed, "old": current},
            )


def _upgrade(connection: Connection, revision: str) -> None:
    if connection.dialect.name == "postgresql":
        connection.execute(text("SELECT pg_advisory_xact_lock(:id)"), {"id": _ADVISORY_LOCK_ID})
    _rename_old_revisions(connection)
    config = alembic_config()
    config.attributes["connection"] = connection
    command.upgrade(config, revision)
    _check_foreign_keys(connection)


def _downgrade(connection: Connection, revision: str) -> None:
    _rename_old_revisions(connection)
    config = alembic_config()
    config.attributes["connection"] = connection
    command.downgrade(config, revision)
    _check_foreign_keys(connection)


def _foreign_keys(connection: Connection, on: bool) -> None:
    """SQLite's foreign-key enforcement for this connection, set on the driver's connection:
    the PRAGMA is a no-op inside a transaction, and SQLAlchemy would begin one."""
    cursor = connection.connection.cursor()
    try:
        cursor.execute(f"PRAGMA foreign_keys={'ON' if on else 'OFF'}")
    finally:
        cursor.close()


def _check_foreign_keys(connection: Connection) -> None:
    """On SQLite, before the migration commits: no row may point at a missing one (enforcement
    is off while migrating, see ``_migrating``)."""
    if connection.dialect.name != "sqlite":
        return
    broken = connection.exec_driver_sql("PRAGMA foreign_key_check").all()
    if broken:
        raise RuntimeError(f"the migration left rows pointing at missing rows: {broken[:5]}")


@asynccontextmanager
async def _migrating(engine: AsyncEngine) -> AsyncIterator[AsyncConnection]:
    """A connection in a transaction for Alembic. On SQLite foreign keys are not enforced
    meanwhile: a batch operation (``op.batch_alter_table``) rebuilds a table by dropping it, and
    dropping ``users`` with enforcement on deletes every row that refers to it ON DELETE CASCADE
    (Alembic's batch documentation, "Dealing with Referencing Foreign Keys");
    ``_check_foreign_keys`` checks the result instead."""
    async with engine.connect() as conn:
        sqlite = conn.dialect.name == "sqlite"
        if sqlite:
            await conn.run_sync(_foreign_keys, False)
        try:
            async with conn.begin():
                yield conn
        finally:
            if sqlite:
                await conn.run_sync(_foreign_keys, True)


def _current(connection: Connection) -> str | None:
    return MigrationContext.configure(connection).get_current_revision()


async def upgrade(engine: AsyncEngine, revision: str = "head") -> None:
    async with _migrating(engine) as conn:
        await conn.run_sync(_upgrade, revision)


async def downgrade(engine: AsyncEngine, revision: str) -> None:
    async with _migrating(engine) as conn:
        await conn.run_sync(_downgrade, revision)


async def current_revision(engine: AsyncEngine) -> str | None:
    async with engine.connect() as conn:
        return await conn.run_sync(_current)


def head_revision() -> str | None:
    return ScriptDirectory.from_config(alembic_config()).get_current_head()


def next_revision_id(message: str, location: Path = MIGRATIONS_DIR) -> str:
    """``NNNN_<slug>``: the next number in application order and the message as a slug, within
    the 32 characters of ``alembic_version.version_num``."""
    numbers = [int(p.name[:4]) for p in (location / "versions").glob("[0-9][0-9][0-9][0-9]_*.py")]
    prefix = f"{max(numbers, default=0) + 1:04d}_"
    slug = re.sub(r"[^a-z0-9]+", "_", message.lower()).strip("_") or "migration"
    return prefix + slug[: MAX_REVISION_LENGTH - len(prefix)].rstrip("_")


def new_revision(message: str, *, autogenerate: bool, location: Path = MIGRATIONS_DIR) -> Path:
    """Write the next migration from the house template and return its path. With
    ``autogenerate``, its upgrade and downgrade are Alembic's comparison of the models with a
    scratch SQLite database migrated to the current head (review them: SQLite-only details,
    PostgreSQL-only indexes and data moves are for the author to write)."""
    config = alembic_config(location)
    revision_id = next_revision_id(message, location)
    if not autogenerate:
        command.revision(config, message, rev_id=revision_id)
        return location / "versions" / f"{revision_id}.py"
    with tempfile.TemporaryDirectory() as scratch:
        engine = create_engine(f"sqlite:///{scratch}/scratch.db")
        try:
            with engine.begin() as connection:
                config.attributes["connection"] = connection
                command.upgrade(config, "head")
                command.revision(config, message, autogenerate=True, rev_id=revision_id)
        finally:
            engine.dispose()
    return location / "versions" / f"{revision_id}.py"
