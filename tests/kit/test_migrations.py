"""Migrations match the models and run both ways on both databases."""

from __future__ import annotations

import uuid
from pathlib import Path

from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import inspect
from sqlalchemy.engine import Connection

from agora.kit.db import Database
from agora.kit.migrate import (
    current_revision,
    downgrade,
    head_revision,
    include_object,
    upgrade,
)
from agora.models import Base
from tests.conftest import _admin_execute, _postgres_url


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


async def test_downgrade_to_base_and_upgrade_again(db: Database, tmp_path: Path) -> None:
    if db.is_sqlite:
        fresh = Database(f"sqlite+aiosqlite:///{tmp_path / 'fresh.db'}")
        name = None
    else:
        name = f"agora_mig_{uuid.uuid4().hex[:10]}"
        await _admin_execute(f'CREATE DATABASE "{name}"')
        fresh = Database(_postgres_url(name))
    try:
        await upgrade(fresh.engine)
        await downgrade(fresh.engine, "base")
        async with fresh.engine.connect() as conn:
            tables = await conn.run_sync(lambda c: inspect(c).get_table_names())
        assert set(tables) <= {"alembic_version"}
        await upgrade(fresh.engine)
        async with fresh.engine.connect() as conn:
            assert await conn.run_sync(_diff) == []
    finally:
        await fresh.dispose()
        if name:
            await _admin_execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
