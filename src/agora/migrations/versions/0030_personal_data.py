"""personal data: data_exports (a person's ZIP exports) and account_deletions (requests to
delete an account, erased after a grace period)

Revision ID: 0030_personal_data
Revises: 0029_passkeys
Create Date: 2026-11-28 00:44:44
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0030_personal_data"
down_revision: str | None = "0029_passkeys"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "account_deletions",
        sa.Column("user_id", sa.Uuid(), nullable=False),
        sa.Column("state", sa.String(length=20), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=True),
        sa.Column("requested_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("token_expires_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("confirmed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("erase_after", sa.DateTime(timezone=True), nullable=True),
        sa.Column("cancelled_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("erased_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["users.id"],
            name=op.f("fk_account_deletions_user_id_users"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("user_id", name=op.f("pk_account_deletions")),
        sa.UniqueConstraint("token_hash", name=op.f("uq_account_deletions_token_hash")),
    )
    with op.batch_alter_table("account_deletions", schema=None) as batch_op:
        batch_op.create_index("ix_account_deletions_due", ["state", "erase_after"], unique=False)

    op.create_table(
        "data_exports",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("user_id", sa.Uuid(), nullable=False),
        sa.Column("state", sa.String(length=20), nullable=False),
        sa.Column("storage_key", sa.String(length=300), nullable=True),
        sa.Column("size", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=True),
        sa.Column("token_hash", sa.String(length=64), nullable=True),
        sa.Column("error", sa.Text(), nullable=True),
        sa.Column("lease_expires_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ready_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("downloaded_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["users.id"],
            name=op.f("fk_data_exports_user_id_users"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_data_exports")),
        sa.UniqueConstraint("token_hash", name=op.f("uq_data_exports_token_hash")),
    )
    with op.batch_alter_table("data_exports", schema=None) as batch_op:
        batch_op.create_index("ix_data_exports_state", ["state", "created_at"], unique=False)
        batch_op.create_index(batch_op.f("ix_data_exports_user_id"), ["user_id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("data_exports", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_data_exports_user_id"))
        batch_op.drop_index("ix_data_exports_state")

    op.drop_table("data_exports")
    with op.batch_alter_table("account_deletions", schema=None) as batch_op:
        batch_op.drop_index("ix_account_deletions_due")

    op.drop_table("account_deletions")
