"""webhook_endpoints: each webhook URL's health (failing since, disabled by a 410 Gone or after
days of failures, with the reason) until its owner re-enables it

Revision ID: 0021_webhook_endpoints
Revises: 0020_quarantine_dismissals
Create Date: 2026-11-27 18:10:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0021_webhook_endpoints"
down_revision: str | None = "0020_quarantine_dismissals"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "webhook_endpoints",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("user_id", sa.Uuid(), nullable=False),
        sa.Column("url", sa.String(length=2000), nullable=False),
        sa.Column("failing_since", sa.DateTime(timezone=True), nullable=True),
        sa.Column("disabled_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("disabled_reason", sa.Text(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["users.id"],
            name=op.f("fk_webhook_endpoints_user_id_users"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_webhook_endpoints")),
    )
    with op.batch_alter_table("webhook_endpoints", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_webhook_endpoints_user_id"), ["user_id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("webhook_endpoints", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_webhook_endpoints_user_id"))
    op.drop_table("webhook_endpoints")
