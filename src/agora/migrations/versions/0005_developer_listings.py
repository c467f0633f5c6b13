"""developer listings: agent ownership, review, listing and override; agent checks; registry
quarantine

Revision ID: 0005_developer_listings
Revises: 0004_accounts
Create Date: 2026-11-23 11:40:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0005_developer_listings"
down_revision: str | None = "0004_accounts"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

JSON = sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql")


def upgrade() -> None:
    with op.batch_alter_table("agents", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("source", sa.String(length=20), nullable=False, server_default="operator")
        )
        batch_op.add_column(sa.Column("owner_user_id", sa.Uuid(), nullable=True))
        batch_op.add_column(sa.Column("owner_organization_id", sa.Uuid(), nullable=True))
        batch_op.add_column(sa.Column("review_state", sa.String(length=20), nullable=True))
        batch_op.add_column(sa.Column("review_note", sa.Text(), nullable=True))
        batch_op.add_column(sa.Column("reviewed_at", sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column("withdrawn_at", sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column("image", sa.String(length=2000), nullable=True))
        batch_op.add_column(sa.Column("listing", JSON, nullable=False, server_default="{}"))
        batch_op.add_column(sa.Column("admin_override", JSON, nullable=False, server_default="{}"))
        batch_op.create_foreign_key(
            batch_op.f("fk_agents_owner_user_id_users"),
            "users",
            ["owner_user_id"],
            ["id"],
            ondelete="SET NULL",
        )
        batch_op.create_foreign_key(
            batch_op.f("fk_agents_owner_organization_id_organizations"),
            "organizations",
            ["owner_organization_id"],
            ["id"],
            ondelete="SET NULL",
        )
        batch_op.create_index("ix_agents_agent_identifier", ["agent_identifier"], unique=True)
        batch_op.create_index("ix_agents_owner_user", ["owner_user_id"], unique=False)
        batch_op.create_index(
            "ix_agents_owner_organization", ["owner_organization_id"], unique=False
        )
        batch_op.create_index("ix_agents_review", ["review_state", "id"], unique=False)
    # The server defaults only fill existing rows; the models set the values from now on.
    with op.batch_alter_table("agents", schema=None) as batch_op:
        batch_op.alter_column("source", server_default=None)
        batch_op.alter_column("listing", server_default=None)
        batch_op.alter_column("admin_override", server_default=None)

    op.create_table(
        "agent_checks",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("agent_id", sa.Uuid(), nullable=False),
        sa.Column("kind", sa.String(length=20), nullable=False),
        sa.Column("available", sa.Boolean(), nullable=False),
        sa.Column("message", sa.Text(), nullable=True),
        sa.Column("checked_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["agent_id"],
            ["agents.id"],
            name=op.f("fk_agent_checks_agent_id_agents"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_agent_checks")),
    )
    op.create_index(
        "ix_agent_checks_agent", "agent_checks", ["agent_id", "checked_at", "id"], unique=False
    )
    op.create_table(
        "registry_quarantine",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("source", sa.String(length=64), nullable=False),
        sa.Column("source_url", sa.String(length=2000), nullable=False),
        sa.Column("entry_key", sa.String(length=500), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("entry", JSON, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_registry_quarantine")),
        sa.UniqueConstraint("source", "entry_key", name="uq_registry_quarantine_entry"),
    )


def downgrade() -> None:
    op.drop_table("registry_quarantine")
    op.drop_index("ix_agent_checks_agent", table_name="agent_checks")
    op.drop_table("agent_checks")
    with op.batch_alter_table("agents", schema=None) as batch_op:
        batch_op.drop_index("ix_agents_review")
        batch_op.drop_index("ix_agents_owner_organization")
        batch_op.drop_index("ix_agents_owner_user")
        batch_op.drop_index("ix_agents_agent_identifier")
        batch_op.drop_constraint(
            batch_op.f("fk_agents_owner_organization_id_organizations"), type_="foreignkey"
        )
        batch_op.drop_constraint(batch_op.f("fk_agents_owner_user_id_users"), type_="foreignkey")
        for column in (
            "admin_override",
            "listing",
            "image",
            "withdrawn_at",
            "reviewed_at",
            "review_note",
            "review_state",
            "owner_organization_id",
            "owner_user_id",
            "source",
        ):
            batch_op.drop_column(column)
