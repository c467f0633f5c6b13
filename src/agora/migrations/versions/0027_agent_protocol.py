"""agents.protocol (mip003 | a2a), the A2A Agent Card as read and the sealed credential for it

Revision ID: 0027_agent_protocol
Revises: 0026_assistant_agents
Create Date: 2026-11-27 21:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0027_agent_protocol"
down_revision: str | None = "0026_assistant_agents"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("agents") as batch:
        batch.add_column(
            sa.Column("protocol", sa.String(length=20), nullable=False, server_default="mip003")
        )
        batch.add_column(
            sa.Column(
                "a2a_card",
                sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql"),
                nullable=True,
            )
        )
        batch.add_column(sa.Column("a2a_credential", sa.Text(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("agents") as batch:
        batch.drop_column("a2a_credential")
        batch.drop_column("a2a_card")
        batch.drop_column("protocol")
