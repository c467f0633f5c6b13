"""assistant_agents: the agents a person chose with "add to my assistant" (with their favourites,
their MCP tools of their own)

Revision ID: 0026_assistant_agents
Revises: 0025_saved_inputs
Create Date: 2026-11-27 21:20:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0026_assistant_agents"
down_revision: str | None = "0025_saved_inputs"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "assistant_agents",
        sa.Column("user_id", sa.Uuid(), nullable=False),
        sa.Column("agent_id", sa.Uuid(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["agent_id"],
            ["agents.id"],
            name=op.f("fk_assistant_agents_agent_id_agents"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["users.id"],
            name=op.f("fk_assistant_agents_user_id_users"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("user_id", "agent_id", name=op.f("pk_assistant_agents")),
    )
    op.create_index(op.f("ix_assistant_agents_agent_id"), "assistant_agents", ["agent_id"])


def downgrade() -> None:
    op.drop_index(op.f("ix_assistant_agents_agent_id"), table_name="assistant_agents")
    op.drop_table("assistant_agents")
