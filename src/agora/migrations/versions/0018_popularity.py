"""agent_daily_completions (completed jobs per agent and UTC day, the popularity sort's counter),
filled from the jobs already COMPLETED

Revision ID: 0018_popularity
Revises: 0017_audit_suspensions
Create Date: 2026-11-25 15:30:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0018_popularity"
down_revision: str | None = "0017_audit_suspensions"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

BACKFILL = {
    "postgresql": "INSERT INTO agent_daily_completions (agent_id, day, count) "
    "SELECT agent_id, CAST(completed_at AT TIME ZONE 'UTC' AS DATE), count(*) FROM jobs "
    "WHERE status = 'COMPLETED' AND completed_at IS NOT NULL "
    "GROUP BY agent_id, CAST(completed_at AT TIME ZONE 'UTC' AS DATE)",
    "sqlite": "INSERT INTO agent_daily_completions (agent_id, day, count) "
    "SELECT agent_id, date(completed_at), count(*) FROM jobs "
    "WHERE status = 'COMPLETED' AND completed_at IS NOT NULL "
    "GROUP BY agent_id, date(completed_at)",
}


def upgrade() -> None:
    op.create_table(
        "agent_daily_completions",
        sa.Column("agent_id", sa.Uuid(), nullable=False),
        sa.Column("day", sa.Date(), nullable=False),
        sa.Column("count", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["agent_id"],
            ["agents.id"],
            name=op.f("fk_agent_daily_completions_agent_id_agents"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("agent_id", "day", name=op.f("pk_agent_daily_completions")),
    )
    # Each completion's UTC day (SQLite stores UTC text: date() keeps its first ten chars).
    op.execute(BACKFILL[op.get_bind().dialect.name])


def downgrade() -> None:
    op.drop_table("agent_daily_completions")
