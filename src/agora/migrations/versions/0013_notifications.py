"""notifications for people: the inbox, preferences per kind and channel, per-job webhooks and
their signing secrets

Revision ID: 0013_notifications
Revises: 0012_files
Create Date: 2026-11-25 14:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0013_notifications"
down_revision: str | None = "0012_files"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

JSONType = sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql")


def _user_fk(table: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint(
        ["user_id"], ["users.id"], name=op.f(f"fk_{table}_user_id_users"), ondelete="CASCADE"
    )


def upgrade() -> None:
    op.create_table(
        "notifications",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("user_id", sa.Uuid(), nullable=False),
        sa.Column("kind", sa.String(length=60), nullable=False),
        sa.Column("subject_ref", sa.String(length=120), nullable=True),
        sa.Column("title", sa.String(length=300), nullable=False),
        sa.Column("data", JSONType, nullable=False),
        sa.Column("read_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        _user_fk("notifications"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_notifications")),
    )
    with op.batch_alter_table("notifications", schema=None) as batch_op:
        batch_op.create_index("ix_notifications_user_id_id", ["user_id", "id"], unique=False)
        batch_op.create_index("ix_notifications_user_unread", ["user_id", "read_at"], unique=False)
        batch_op.create_index(
            "ix_notifications_user_subject", ["user_id", "subject_ref"], unique=False
        )
    op.create_table(
        "notification_preferences",
        sa.Column("user_id", sa.Uuid(), nullable=False),
        sa.Column("kind", sa.String(length=60), nullable=False),
        sa.Column("channel", sa.String(length=20), nullable=False),
        sa.Column("enabled", sa.Boolean(), nullable=False),
        _user_fk("notification_preferences"),
        sa.PrimaryKeyConstraint(
            "user_id", "kind", "channel", name=op.f("pk_notification_preferences")
        ),
    )
    op.create_table(
        "job_webhooks",
        sa.Column("job_id", sa.Uuid(), nullable=False),
        sa.Column("user_id", sa.Uuid(), nullable=False),
        sa.Column("url", sa.String(length=2000), nullable=False),
        sa.Column("events", JSONType, nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["job_id"], ["jobs.id"], name=op.f("fk_job_webhooks_job_id_jobs"), ondelete="CASCADE"
        ),
        _user_fk("job_webhooks"),
        sa.PrimaryKeyConstraint("job_id", name=op.f("pk_job_webhooks")),
    )
    op.create_table(
        "webhook_signing_secrets",
        sa.Column("user_id", sa.Uuid(), nullable=False),
        sa.Column("secret", sa.String(length=200), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        _user_fk("webhook_signing_secrets"),
        sa.PrimaryKeyConstraint("user_id", name=op.f("pk_webhook_signing_secrets")),
    )


def downgrade() -> None:
    op.drop_table("webhook_signing_secrets")
    op.drop_table("job_webhooks")
    op.drop_table("notification_preferences")
    with op.batch_alter_table("notifications", schema=None) as batch_op:
        batch_op.drop_index("ix_notifications_user_subject")
        batch_op.drop_index("ix_notifications_user_unread")
        batch_op.drop_index("ix_notifications_user_id_id")
    op.drop_table("notifications")
