"""history feed: trigram indexes for `q` on PostgreSQL

Revision ID: 0002_history_search_indexes
Revises: 0001_initial_schema
Create Date: 2026-11-23 02:30:00

PostgreSQL only (SQLite scans; see docs/history.md). Large existing tables: build these with
CREATE INDEX CONCURRENTLY by hand before upgrading if the write pause matters.
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0002_history_search_indexes"
down_revision: str | None = "0001_initial_schema"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

INDEXES = (
    ("ix_tasks_name_trgm", "tasks", "name"),
    ("ix_tasks_description_trgm", "tasks", "description"),
    ("ix_jobs_name_trgm", "jobs", "name"),
    ("ix_conversations_title_trgm", "conversations", "title"),
    ("ix_conversations_description_trgm", "conversations", "description"),
)


def upgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
    for name, table, column in INDEXES:
        op.create_index(
            name,
            table,
            [column],
            postgresql_using="gin",
            postgresql_ops={column: "gin_trgm_ops"},
        )


def downgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    for name, table, _column in INDEXES:
        op.drop_index(name, table_name=table)
