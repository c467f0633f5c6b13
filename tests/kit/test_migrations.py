"""Migrations match the models and run both ways on both databases."""

from __future__ import annotations

import re
import shutil
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import inspect
from sqlalchemy.engine import Connection
from typer.testing import CliRunner

from agora.cli.main import app as cli
from agora.kit.db import Database
from agora.kit.migrate import (
    MIGRATIONS_DIR,
    RENAMED_REVISIONS,
    alembic_config,
    current_revision,
    downgrade,
    head_revision,
    include_object,
    upgrade,
)
from agora.models import Base, User, Workspace
from tests.conftest import _admin_execute, _postgres_url
from tests.support.legacy import insert_old


def _diff(connection: Connection) -> list[object]:
    context = MigrationContext.configure(
        connection, opts={"compare_type": True, "include_object": include_object}
    )
    return list(compare_metadata(context, Base.metadata))


async def test_migrated_schema_matches_the_models(db: Database) -> None:
    async with db.engine.connect() as conn:
        diff = await conn.run_sync(_diff)
    assert diff == []
    assert await current_revision(db.engine) == head_revision()


@asynccontextmanager
async def _fresh_database(db: Database, tmp_path: Path) -> AsyncIterator[Database]:
    """An empty database on ``db``'s backend, dropped afterwards."""
    if db.is_sqlite:
        fresh = Database(f"sqlite+aiosqlite:///{tmp_path / f'fresh-{uuid.uuid4().hex[:6]}.db'}")
        name = None
    else:
        name = f"agora_mig_{uuid.uuid4().hex[:10]}"
        await _admin_execute(f'CREATE DATABASE "{name}"')
        fresh = Database(_postgres_url(name))
    try:
        yield fresh
    finally:
        await fresh.dispose()
        if name:
            await _admin_execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


async def test_downgrade_to_base_and_upgrade_again(db: Database, tmp_path: Path) -> None:
    async with _fresh_database(db, tmp_path) as fresh:
        await upgrade(fresh.engine)
        await downgrade(fresh.engine, "base")
        async with fresh.engine.connect() as conn:
            tables = await conn.run_sync(lambda c: inspect(c).get_table_names())
        assert set(tables) <= {"alembic_version"}
        assert await current_revision(fresh.engine) is None
        await upgrade(fresh.engine)
        async with fresh.engine.connect() as conn:
            assert await conn.run_sync(_diff) == []
        assert await current_revision(fresh.engine) == head_revision()


def test_the_chain_is_linear_and_named_in_application_order() -> None:
    assert_chain_in_order(MIGRATIONS_DIR)


def test_a_new_migration_comes_from_the_house_template(tmp_path: Path) -> None:
    """`agora migration new` writes the next number, revising the head, dated, formatted; with
    --autogenerate against models that agree with the migrations it changes nothing."""
    location = tmp_path / "migrations"
    shutil.copytree(MIGRATIONS_DIR, location, ignore=shutil.ignore_patterns("__pycache__"))
    head = head_revision()
    assert head is not None
    number = int(head[:4]) + 1
    made = CliRunner().invoke(
        cli, ["migration", "new", "Give tasks a colour!", "--directory", str(location)]
    )
    assert made.exit_code == 0, made.output
    path = location / "versions" / f"{number:04d}_give_tasks_a_colour.py"
    assert made.output.strip().endswith(str(path))
    text = path.read_text()
    assert f'down_revision: str | None = "{head}"' in text
    assert re.search(r"^Create Date: \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$", text, re.M)
    assert_chain_in_order(location)
    auto = CliRunner().invoke(
        cli,
        ["migration", "new", "nothing to do " * 5, "--autogenerate", "--directory", str(location)],
    )
    assert auto.exit_code == 0, auto.output
    second = Path(auto.output.strip().splitlines()[-1])
    assert len(second.stem) <= 32 and second.stem.startswith(f"{number + 1:04d}_nothing_to_do")
    upgrade_body = second.read_text().split("def upgrade() -> None:")[1].split("def downgrade")[0]
    assert "op." not in upgrade_body  # the models and the migrations agree
    assert_chain_in_order(location)


def assert_chain_in_order(location: Path) -> None:
    """One base, one head, no branch or merge; file N is the Nth migration applied, its revision
    id is its file name, and its docstring header states its id and parent."""
    script = ScriptDirectory.from_config(alembic_config(location))
    assert len(script.get_bases()) == 1
    assert len(script.get_heads()) == 1
    applied = list(reversed(list(script.walk_revisions("base", "heads"))))
    parent = None
    for position, revision in enumerate(applied, start=1):
        assert revision.down_revision == parent, revision.revision
        assert not revision.dependencies, revision.revision
        assert revision.path is not None
        path = Path(revision.path)
        assert revision.revision == path.stem
        assert path.stem.startswith(f"{position:04d}_"), (position, path.name)
        # alembic_version.version_num is VARCHAR(32)
        assert len(revision.revision) <= 32, revision.revision
        header = path.read_text()
        assert re.search(rf"^Revision ID: {re.escape(revision.revision)}$", header, re.M)
        assert re.search(rf"^Revises: ?{re.escape(parent or '')}$", header, re.M), path.name
        parent = revision.revision
    files = sorted(p.stem for p in (location / "versions").glob("[0-9]*.py"))
    assert files == [r.revision for r in applied]


def _old_migrations(tmp_path: Path) -> Path:
    """The migrations as they were before the rename: the same files with their old, bare-number
    revision ids (applied 0001→0002→0003→0006→0011→0005→0007)."""
    old_ids = {new: old for old, new in RENAMED_REVISIONS.items()}
    location = tmp_path / "old_migrations"
    shutil.copytree(
        MIGRATIONS_DIR, location, ignore=shutil.ignore_patterns("__pycache__", "[0-9]*.py")
    )
    for path in (MIGRATIONS_DIR / "versions").glob("[0-9]*.py"):
        if path.stem not in old_ids:
            continue  # added after the rename: the old code never had it
        source = path.read_text()
        for new, old in old_ids.items():
            source = source.replace(f'"{new}"', f'"{old}"')
        (location / "versions" / f"{old_ids[path.stem]}_{path.stem[5:]}.py").write_text(source)
    return location


@pytest.mark.parametrize("old_revision", ["0005", "0007"])
async def test_a_database_migrated_under_the_old_ids_upgrades(
    db: Database, tmp_path: Path, old_revision: str
) -> None:
    """A database migrated by the old code (the demo's SQLite file, a deployment's PostgreSQL)
    holds an old id: upgrading maps it to its new name and continues from there. Old 0005 is the
    coworkers migration, the sixth applied, not the new 0005 (developer listings)."""
    location = _old_migrations(tmp_path)
    old_script = ScriptDirectory(str(location))
    assert old_script.get_current_head() == "0007"
    async with _fresh_database(db, tmp_path) as fresh:

        def old_upgrade(connection: Connection) -> None:
            config = alembic_config()
            config.set_main_option("script_location", str(location))
            config.attributes["connection"] = connection
            command.upgrade(config, old_revision)

        async with fresh.engine.begin() as conn:
            await conn.run_sync(old_upgrade)
        assert await current_revision(fresh.engine) == old_revision
        await upgrade(fresh.engine)
        assert await current_revision(fresh.engine) == head_revision()
        async with fresh.engine.connect() as conn:
            assert await conn.run_sync(_diff) == []
        await downgrade(fresh.engine, "0005_developer_listings")
        assert await current_revision(fresh.engine) == "0005_developer_listings"


async def test_rows_referring_to_users_survive_every_migration(
    db: Database, tmp_path: Path
) -> None:
    """A person's workspace (``ON DELETE CASCADE`` from ``users``) is still there after each
    migration, up and back down to the first: on SQLite a batch operation rebuilds a table by
    dropping it, which with foreign keys enforced deletes every row referring to it
    (kit/migrate.py, ``_migrating``; 0029 rebuilt ``users`` and emptied ``workspaces``)."""
    script = ScriptDirectory.from_config(alembic_config())
    chain = [r.revision for r in reversed(list(script.walk_revisions()))]
    first = chain[0]
    async with _fresh_database(db, tmp_path) as fresh:
        await upgrade(fresh.engine, first)
        async with fresh.transaction() as session:
            person = await insert_old(session, User, email="kept@example.com", name="Kept")
            await insert_old(
                session, Workspace, name="W", kind="personal", owner_user_id=person["id"]
            )

        async def workspaces() -> int:
            async with fresh.engine.connect() as conn:
                found = await conn.exec_driver_sql("SELECT count(*) FROM workspaces")
                return int(found.scalar_one())

        for revision in chain[1:]:
            await upgrade(fresh.engine, revision)
            assert await workspaces() == 1, f"upgrading to {revision} deleted the workspace"
        for revision in reversed(chain[:-1]):
            await downgrade(fresh.engine, revision)
            assert await workspaces() == 1, f"downgrading to {revision} deleted the workspace"
