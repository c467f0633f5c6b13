"""Rows written into a database migrated to an older revision (a migration's own test): the
models describe the newest schema, so their INSERT would name columns the old one lacks."""

from __future__ import annotations

import uuid
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import Session

from agora.models import Base


async def insert_old(session: AsyncSession, model: type[Base], **values: Any) -> dict[str, Any]:
    """Insert one row of ``model``'s table as the database has it now: the table is reflected,
    and each of its columns not given takes the model's Python default. Returns the row."""

    def insert(sync: Session) -> dict[str, Any]:
        connection = sync.connection()
        modelled = model.__table__.columns
        found = sa.Table(model.__tablename__, sa.MetaData(), autoload_with=connection).columns
        # The model's types (they bind UUIDs and JSON on SQLite too) for the columns there are.
        table = sa.Table(
            model.__tablename__,
            sa.MetaData(),
            *(sa.Column(c.name, modelled[c.name].type if c.name in modelled else c.type)
              for c in found),
        )  # fmt: skip
        row: dict[str, Any] = {}
        for column in table.columns:
            if column.name in values:
                row[column.name] = values[column.name]
                continue
            default = modelled[column.name].default if column.name in modelled else None
            if isinstance(default, sa.ColumnDefault):
                row[column.name] = default.arg(None) if default.is_callable else default.arg
        row.setdefault("id", uuid.uuid4())
        connection.execute(sa.insert(table).values(**row))
        return row

    return await session.run_sync(insert)
