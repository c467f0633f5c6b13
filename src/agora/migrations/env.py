"""Alembic environment: always driven from ``agora.kit.migrate`` with an open connection."""

from __future__ import annotations

from alembic import context
from sqlalchemy.engine import Connection

from agora.kit.migrate import include_object
from agora.models import Base

target_metadata = Base.metadata


def run_with_connection(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
        include_object=include_object,
    )
    with context.begin_transaction():
        context.run_migrations()


connection = context.config.attributes.get("connection")
if connection is None:
    raise RuntimeError("run migrations with `agora migrate` (agora.kit.migrate)")
run_with_connection(connection)
