"""saved_inputs: a person's named inputs for an agent (a pinned version or the latest
compatible one), used by the hire form, schedules and MCP

Revision ID: 0025_saved_inputs
Revises: 0024_agent_versions
Create Date: 2026-11-27 21:05:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0025_saved_inputs"
down_revision: str | None = "0024_agent_versions"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "saved_inputs",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("workspace_id", sa.Uuid(), nullable=False),
        sa.Column("user_id", sa.Uuid(), nullable=False),
        sa.Column("agent_id", sa.Uuid(), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column(
            "input_data",
            sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql"),
            nullable=False,
        ),
        sa.Column("agent_version", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["agent_id"],
            ["agents.id"],
            name=op.f("fk_saved_inputs_agent_id_agents"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["users.id"],
            name=op.f("fk_saved_inputs_user_id_users"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["workspace_id"],
            ["workspaces.id"],
            name=op.f("fk_saved_inputs_workspace_id_workspaces"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_saved_inputs")),
    )
    with op.batch_alter_table("saved_inputs", schema=None) as batch_op:
        batch_op.create_index("ix_saved_inputs_agent", ["agent_id"], unique=False)
        batch_op.create_index(
            "ix_saved_inputs_owner",
            ["workspace_id", "user_id", "agent_id", "created_at"],
            unique=False,
        )


def downgrade() -> None:
    with op.batch_alter_table("saved_inputs", schema=None) as batch_op:
        batch_op.drop_index("ix_saved_inputs_owner")
        batch_op.drop_index("ix_saved_inputs_agent")
    op.drop_table("saved_inputs")
