"""registry checkpoints: where registry-diff resumes for each feed and network

Revision ID: 0008_registry_checkpoints
Revises: 0007_job_payments
Create Date: 2026-11-25 11:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008_registry_checkpoints"
down_revision: str | None = "0007_job_payments"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "registry_checkpoints",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("source", sa.String(length=64), nullable=False),
        sa.Column("network", sa.String(length=20), nullable=False),
        sa.Column("source_url", sa.String(length=2000), nullable=False),
        sa.Column("status_updated_after", sa.String(length=40), nullable=False),
        sa.Column("cursor_id", sa.String(length=100), nullable=True),
        sa.Column("full_pass_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_registry_checkpoints")),
        sa.UniqueConstraint("source", "network", name="uq_registry_checkpoints_source_network"),
    )


def downgrade() -> None:
    op.drop_table("registry_checkpoints")
