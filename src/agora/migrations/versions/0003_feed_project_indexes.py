"""history feed: keyset indexes for the projectId filter

Revision ID: 0003_feed_project_indexes
Revises: 0002_history_search_indexes
Create Date: 2026-11-23 03:00:00

Without them a `projectId` whose items are hidden (archived) or rare scans the workspace's whole
feed index; with them the filter reads its project's rows in feed order.
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0003_feed_project_indexes"
down_revision: str | None = "0002_history_search_indexes"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    for table in ("tasks", "jobs"):
        op.create_index(
            f"ix_{table}_feed_project",
            table,
            ["workspace_id", "project_id", "updated_at", "id"],
        )


def downgrade() -> None:
    for table in ("tasks", "jobs"):
        op.drop_index(f"ix_{table}_feed_project", table_name=table)
