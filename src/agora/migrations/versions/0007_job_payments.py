"""jobs: Masumi payment columns (payment backend, blockchain identifier, contract state, hashes)

Revision ID: 0007_job_payments
Revises: 0006_coworkers_task_workflow
Create Date: 2026-11-23 11:30:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0007_job_payments"
down_revision: str | None = "0006_coworkers_task_workflow"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("jobs") as batch:
        batch.add_column(sa.Column("payment_backend", sa.String(length=20), nullable=True))
        batch.add_column(sa.Column("blockchain_identifier", sa.Text(), nullable=True))
        batch.add_column(
            sa.Column(
                "payment",
                sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql"),
                nullable=True,
            )
        )
        batch.add_column(sa.Column("result_hash", sa.String(length=64), nullable=True))
        batch.add_column(sa.Column("verified", sa.Boolean(), nullable=True))
        batch.add_column(
            sa.Column("refund_requested_at", sa.DateTime(timezone=True), nullable=True)
        )


def downgrade() -> None:
    with op.batch_alter_table("jobs") as batch:
        for column in (
            "refund_requested_at",
            "verified",
            "result_hash",
            "payment",
            "blockchain_identifier",
        ):
            batch.drop_column(column)
        batch.drop_column("payment_backend")
