"""conformance_runs: every run of the conformance suite over an agent (submission, review, the
certification round), with each check's outcome and the badge the listing holds after it

Revision ID: 0023_conformance_runs
Revises: 0022_one_rating_per_person
Create Date: 2026-11-27 19:20:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0023_conformance_runs"
down_revision: str | None = "0022_one_rating_per_person"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "conformance_runs",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("agent_id", sa.Uuid(), nullable=False),
        sa.Column("kind", sa.String(length=20), nullable=False),
        sa.Column("suite_version", sa.String(length=20), nullable=False),
        sa.Column("passed", sa.Boolean(), nullable=False),
        sa.Column(
            "checks",
            sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql"),
            nullable=False,
        ),
        sa.Column("certified_on", sa.DateTime(timezone=True), nullable=True),
        sa.Column("ran_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["agent_id"],
            ["agents.id"],
            name=op.f("fk_conformance_runs_agent_id_agents"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_conformance_runs")),
    )
    with op.batch_alter_table("conformance_runs", schema=None) as batch_op:
        batch_op.create_index(
            "ix_conformance_runs_agent", ["agent_id", "ran_at", "id"], unique=False
        )


def downgrade() -> None:
    with op.batch_alter_table("conformance_runs", schema=None) as batch_op:
        batch_op.drop_index("ix_conformance_runs_agent")
    op.drop_table("conformance_runs")
