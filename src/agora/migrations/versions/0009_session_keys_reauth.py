"""api_keys.created_by_session_id (keys made from a browser session, revoked by a password reset);
browser_sessions.authenticated_at (the last password or magic-link proof, for key creation)

Revision ID: 0009_session_keys_reauth
Revises: 0008_registry_checkpoints
Create Date: 2026-11-25 11:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009_session_keys_reauth"
down_revision: str | None = "0008_registry_checkpoints"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("api_keys") as batch:
        batch.add_column(sa.Column("created_by_session_id", sa.Uuid(), nullable=True))
    with op.batch_alter_table("browser_sessions") as batch:
        batch.add_column(sa.Column("authenticated_at", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("browser_sessions") as batch:
        batch.drop_column("authenticated_at")
    with op.batch_alter_table("api_keys") as batch:
        batch.drop_column("created_by_session_id")
