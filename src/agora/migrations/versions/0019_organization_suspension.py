"""organizations.suspended_at and suspension_reason (an operator's suspension of an organization)

Revision ID: 0019_organization_suspension
Revises: 0018_popularity
Create Date: 2026-11-26 21:45:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0019_organization_suspension"
down_revision: str | None = "0018_popularity"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("organizations") as batch:
        batch.add_column(sa.Column("suspended_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("suspension_reason", sa.String(length=500), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("organizations") as batch:
        batch.drop_column("suspension_reason")
        batch.drop_column("suspended_at")
