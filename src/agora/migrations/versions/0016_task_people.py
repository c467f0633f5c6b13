"""people on tasks: a member assignee, participants; task events of assignment changes

Revision ID: 0016_task_people
Revises: 0015_ratings
Create Date: 2026-11-25 14:10:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from agora.models.base import JSONType, Timestamp

revision: str = "0016_task_people"
down_revision: str | None = "0015_ratings"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("tasks") as batch:
        batch.add_column(sa.Column("assignee_user_id", sa.Uuid(), nullable=True))
        batch.create_foreign_key(
            "fk_tasks_assignee_user_id_users",
            "users",
            ["assignee_user_id"],
            ["id"],
            ondelete="SET NULL",
        )
        batch.create_index(
            "ix_tasks_assignee", ["workspace_id", "assignee_user_id", "updated_at", "id"]
        )
    with op.batch_alter_table("task_events") as batch:
        batch.add_column(sa.Column("kind", sa.String(20), nullable=True))
        batch.add_column(sa.Column("change", JSONType, nullable=True))
    op.create_table(
        "task_participants",
        sa.Column("task_id", sa.Uuid(), nullable=False),
        sa.Column("user_id", sa.Uuid(), nullable=False),
        sa.Column("created_at", Timestamp, nullable=False),
        sa.ForeignKeyConstraint(
            ["task_id"],
            ["tasks.id"],
            name=op.f("fk_task_participants_task_id_tasks"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["users.id"],
            name=op.f("fk_task_participants_user_id_users"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("task_id", "user_id", name=op.f("pk_task_participants")),
    )
    op.create_index("ix_task_participants_user", "task_participants", ["user_id"])


def downgrade() -> None:
    op.drop_index("ix_task_participants_user", table_name="task_participants")
    op.drop_table("task_participants")
    with op.batch_alter_table("task_events") as batch:
        batch.drop_column("change")
        batch.drop_column("kind")
    with op.batch_alter_table("tasks") as batch:
        batch.drop_index("ix_tasks_assignee")
        batch.drop_constraint("fk_tasks_assignee_user_id_users", type_="foreignkey")
        batch.drop_column("assignee_user_id")
