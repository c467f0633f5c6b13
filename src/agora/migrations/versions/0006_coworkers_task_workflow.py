"""coworkers, task events, coworker usage; tasks gain an assignee, origin, channel, metadata

Revision ID: 0006_coworkers_task_workflow
Revises: 0005_developer_listings
Create Date: 2026-11-23 11:30:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from agora.models.base import BigInt, JSONType, Timestamp

revision: str = "0006_coworkers_task_workflow"
down_revision: str | None = "0005_developer_listings"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "coworkers",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("owner_user_id", sa.Uuid(), nullable=False),
        sa.Column("slug", sa.String(120), nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("caption", sa.String(500), nullable=True),
        sa.Column("company", sa.String(200), nullable=True),
        sa.Column("company_logo", sa.String(2000), nullable=True),
        sa.Column("url", sa.String(2000), nullable=True),
        sa.Column("base_url", sa.String(2000), nullable=True),
        sa.Column("email", sa.String(320), nullable=True),
        sa.Column("description", sa.Text(), nullable=True),
        sa.Column("image", sa.String(2000), nullable=True),
        sa.Column("metadata", JSONType, nullable=True),
        sa.Column("capabilities", JSONType, nullable=False),
        sa.Column("priority", sa.Integer(), nullable=False),
        sa.Column("price", BigInt, nullable=False),
        sa.Column("estimated_duration", sa.Integer(), nullable=True),
        sa.Column("whitelisted_at", Timestamp, nullable=True),
        sa.Column("archived_at", Timestamp, nullable=True),
        sa.Column("created_at", Timestamp, nullable=False),
        sa.Column("updated_at", Timestamp, nullable=False),
        sa.ForeignKeyConstraint(
            ["owner_user_id"],
            ["users.id"],
            name=op.f("fk_coworkers_owner_user_id_users"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_coworkers")),
        sa.UniqueConstraint("slug", name=op.f("uq_coworkers_slug")),
    )
    op.create_index("ix_coworkers_owner", "coworkers", ["owner_user_id"])
    op.create_table(
        "coworker_workspaces",
        sa.Column("coworker_id", sa.Uuid(), nullable=False),
        sa.Column("workspace_id", sa.Uuid(), nullable=False),
        sa.Column("created_at", Timestamp, nullable=False),
        sa.ForeignKeyConstraint(
            ["coworker_id"],
            ["coworkers.id"],
            name=op.f("fk_coworker_workspaces_coworker_id_coworkers"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["workspace_id"],
            ["workspaces.id"],
            name=op.f("fk_coworker_workspaces_workspace_id_workspaces"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("coworker_id", "workspace_id", name=op.f("pk_coworker_workspaces")),
    )
    op.create_index("ix_coworker_workspaces_workspace_id", "coworker_workspaces", ["workspace_id"])
    with op.batch_alter_table("tasks") as batch:
        batch.add_column(sa.Column("coworker_id", sa.Uuid(), nullable=True))
        batch.add_column(sa.Column("origin", sa.String(20), nullable=True))
        batch.add_column(sa.Column("channel", sa.String(20), nullable=True))
        batch.add_column(sa.Column("metadata", JSONType, nullable=True))
        batch.create_foreign_key(
            "fk_tasks_coworker_id_coworkers",
            "coworkers",
            ["coworker_id"],
            ["id"],
            ondelete="SET NULL",
        )
        batch.create_index("ix_tasks_coworker", ["coworker_id"])
    op.create_table(
        "task_events",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("task_id", sa.Uuid(), nullable=False),
        sa.Column("status", sa.String(40), nullable=True),
        sa.Column("comment", sa.Text(), nullable=True),
        sa.Column("credits", BigInt, nullable=True),
        sa.Column("authentication_url", sa.String(2000), nullable=True),
        sa.Column("metadata", JSONType, nullable=True),
        sa.Column("actor_type", sa.String(20), nullable=True),
        sa.Column("actor_user_id", sa.Uuid(), nullable=True),
        sa.Column("actor_coworker_id", sa.Uuid(), nullable=True),
        sa.Column("channel", sa.String(20), nullable=True),
        sa.Column("origin", sa.String(20), nullable=True),
        sa.Column("created_at", Timestamp, nullable=False),
        sa.Column("updated_at", Timestamp, nullable=False),
        sa.ForeignKeyConstraint(
            ["task_id"], ["tasks.id"], name=op.f("fk_task_events_task_id_tasks"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["actor_user_id"],
            ["users.id"],
            name=op.f("fk_task_events_actor_user_id_users"),
            ondelete="SET NULL",
        ),
        sa.ForeignKeyConstraint(
            ["actor_coworker_id"],
            ["coworkers.id"],
            name=op.f("fk_task_events_actor_coworker_id_coworkers"),
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_task_events")),
    )
    op.create_index("ix_task_events_task", "task_events", ["task_id", "created_at", "id"])
    op.create_table(
        "coworker_usage",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("coworker_id", sa.Uuid(), nullable=False),
        sa.Column("user_id", sa.Uuid(), nullable=False),
        sa.Column("organization_id", sa.Uuid(), nullable=True),
        sa.Column("workspace_id", sa.Uuid(), nullable=False),
        sa.Column("task_id", sa.Uuid(), nullable=True),
        sa.Column("idempotency_key", sa.String(200), nullable=False),
        sa.Column("reference_id", sa.String(200), nullable=True),
        sa.Column("credits", BigInt, nullable=False),
        sa.Column("transaction_id", sa.Uuid(), nullable=True),
        sa.Column("request_hash", sa.String(64), nullable=False),
        sa.Column("created_at", Timestamp, nullable=False),
        sa.Column("updated_at", Timestamp, nullable=False),
        sa.ForeignKeyConstraint(
            ["coworker_id"],
            ["coworkers.id"],
            name=op.f("fk_coworker_usage_coworker_id_coworkers"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["users.id"],
            name=op.f("fk_coworker_usage_user_id_users"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["organization_id"],
            ["organizations.id"],
            name=op.f("fk_coworker_usage_organization_id_organizations"),
            ondelete="SET NULL",
        ),
        sa.ForeignKeyConstraint(
            ["workspace_id"],
            ["workspaces.id"],
            name=op.f("fk_coworker_usage_workspace_id_workspaces"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["task_id"],
            ["tasks.id"],
            name=op.f("fk_coworker_usage_task_id_tasks"),
            ondelete="SET NULL",
        ),
        sa.ForeignKeyConstraint(
            ["transaction_id"],
            ["ledger_entries.id"],
            name=op.f("fk_coworker_usage_transaction_id_ledger_entries"),
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_coworker_usage")),
        sa.UniqueConstraint("coworker_id", "idempotency_key", name=op.f("uq_coworker_usage_key")),
    )
    op.create_index("ix_coworker_usage_task", "coworker_usage", ["task_id"])


def downgrade() -> None:
    op.drop_index("ix_coworker_usage_task", table_name="coworker_usage")
    op.drop_table("coworker_usage")
    op.drop_index("ix_task_events_task", table_name="task_events")
    op.drop_table("task_events")
    with op.batch_alter_table("tasks") as batch:
        batch.drop_index("ix_tasks_coworker")
        batch.drop_constraint("fk_tasks_coworker_id_coworkers", type_="foreignkey")
        batch.drop_column("metadata")
        batch.drop_column("channel")
        batch.drop_column("origin")
        batch.drop_column("coworker_id")
    op.drop_index("ix_coworker_workspaces_workspace_id", table_name="coworker_workspaces")
    op.drop_table("coworker_workspaces")
    op.drop_index("ix_coworkers_owner", table_name="coworkers")
    op.drop_table("coworkers")
