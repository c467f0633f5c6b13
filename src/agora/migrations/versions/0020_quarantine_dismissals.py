"""registry_quarantine remembers a dismissal (dismissed_at, dismissed_reason): the next sync
leaves a dismissed entry alone while it is unchanged

Revision ID: 0020_quarantine_dismissals
Revises: 0019_organization_suspension
Create Date: 2026-11-26 21:40:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0020_quarantine_dismissals"
down_revision: str | None = "0019_organization_suspension"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column(
        "registry_quarantine",
        sa.Column("dismissed_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.add_column("registry_quarantine", sa.Column("dismissed_reason", sa.Text(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("registry_quarantine") as batch:
        batch.drop_column("dismissed_reason")
        batch.drop_column("dismissed_at")
