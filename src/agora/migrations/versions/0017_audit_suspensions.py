"""the audit log (audit_events); users.suspended_at (an operator's suspension)

Revision ID: 0017_audit_suspensions
Revises: 0016_task_people
Create Date: 2026-11-25 14:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0017_audit_suspensions"
down_revision: str | None = "0016_task_people"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

JSONType = sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql")


def upgrade() -> None:
    with op.batch_alter_table("users") as batch:
        batch.add_column(sa.Column("suspended_at", sa.DateTime(timezone=True), nullable=True))
    op.create_table(
        "audit_events",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("action", sa.String(length=60), nullable=False),
        sa.Column("actor_kind", sa.String(length=20), nullable=False),
        sa.Column("actor_id", sa.Uuid(), nullable=True),
        sa.Column("actor_key_id", sa.Uuid(), nullable=True),
        sa.Column("target_kind", sa.String(length=30), nullable=False),
        sa.Column("target_id", sa.String(length=100), nullable=False),
        sa.Column("workspace_id", sa.Uuid(), nullable=True),
        sa.Column("organization_id", sa.Uuid(), nullable=True),
        sa.Column("request_id", sa.String(length=100), nullable=False),
        sa.Column("client_address", sa.String(length=64), nullable=False),
        sa.Column("details", JSONType, nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_audit_events")),
    )
    op.create_index(op.f("ix_audit_events_action"), "audit_events", ["action"])
    op.create_index(
        "ix_audit_events_organization_time", "audit_events", ["organization_id", "created_at"]
    )
    op.create_index("ix_audit_events_target", "audit_events", ["target_kind", "target_id"])


def downgrade() -> None:
    op.drop_index("ix_audit_events_target", table_name="audit_events")
    op.drop_index("ix_audit_events_organization_time", table_name="audit_events")
    op.drop_index(op.f("ix_audit_events_action"), table_name="audit_events")
    op.drop_table("audit_events")
    with op.batch_alter_table("users") as batch:
        batch.drop_column("suspended_at")
