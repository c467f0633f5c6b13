"""billing: credit packs, purchases with Stripe, applied Stripe events, spending caps; the
workspace's shortfall, Stripe customer and low-balance warning

Revision ID: 0010_billing
Revises: 0009_session_keys_reauth
Create Date: 2026-11-25 10:40:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010_billing"
down_revision: str | None = "0009_session_keys_reauth"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

BigInt = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    with op.batch_alter_table("workspaces", schema=None) as batch_op:
        batch_op.add_column(sa.Column("shortfall", BigInt, nullable=False, server_default="0"))
        batch_op.add_column(sa.Column("stripe_customer_id", sa.String(length=255), nullable=True))
        batch_op.add_column(sa.Column("low_balance_threshold", BigInt, nullable=True))
        batch_op.add_column(
            sa.Column("low_balance_warned", sa.Boolean(), nullable=False, server_default=sa.false())
        )
        batch_op.create_check_constraint("shortfall_not_negative", "shortfall >= 0")
    with op.batch_alter_table("workspaces", schema=None) as batch_op:
        batch_op.alter_column("shortfall", server_default=None)
        batch_op.alter_column("low_balance_warned", server_default=None)

    op.create_table(
        "credit_packs",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column("credits", BigInt, nullable=False),
        sa.Column("price", BigInt, nullable=False),
        sa.Column("currency", sa.String(length=3), nullable=False),
        sa.Column("active", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("credits > 0", name=op.f("ck_credit_packs_credits_positive")),
        sa.CheckConstraint("price > 0", name=op.f("ck_credit_packs_price_positive")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_credit_packs")),
    )
    op.create_table(
        "credit_purchases",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("workspace_id", sa.Uuid(), nullable=False),
        sa.Column("user_id", sa.Uuid(), nullable=True),
        sa.Column("pack_id", sa.Uuid(), nullable=True),
        sa.Column("credits", BigInt, nullable=False),
        sa.Column("price", BigInt, nullable=False),
        sa.Column("currency", sa.String(length=3), nullable=False),
        sa.Column("status", sa.String(length=20), nullable=False),
        sa.Column("stripe_payment_intent_id", sa.String(length=255), nullable=False),
        sa.Column("stripe_customer_id", sa.String(length=255), nullable=False),
        sa.Column("stripe_charge_id", sa.String(length=255), nullable=True),
        sa.Column("receipt_url", sa.String(length=2000), nullable=True),
        sa.Column("failure_message", sa.String(length=500), nullable=True),
        sa.Column("refunded", BigInt, nullable=False),
        sa.Column("clawed_back", BigInt, nullable=False),
        sa.Column("shortfall", BigInt, nullable=False),
        sa.Column("paid_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["workspace_id"],
            ["workspaces.id"],
            name=op.f("fk_credit_purchases_workspace_id_workspaces"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["users.id"],
            name=op.f("fk_credit_purchases_user_id_users"),
            ondelete="SET NULL",
        ),
        sa.ForeignKeyConstraint(
            ["pack_id"],
            ["credit_packs.id"],
            name=op.f("fk_credit_purchases_pack_id_credit_packs"),
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_credit_purchases")),
        sa.UniqueConstraint(
            "stripe_payment_intent_id", name=op.f("uq_credit_purchases_stripe_payment_intent_id")
        ),
    )
    op.create_index(
        "ix_credit_purchases_workspace",
        "credit_purchases",
        ["workspace_id", "created_at", "id"],
        unique=False,
    )
    op.create_index(
        op.f("ix_credit_purchases_stripe_charge_id"),
        "credit_purchases",
        ["stripe_charge_id"],
        unique=False,
    )
    op.create_table(
        "stripe_events",
        sa.Column("id", sa.String(length=255), nullable=False),
        sa.Column("type", sa.String(length=100), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_stripe_events")),
    )
    op.create_table(
        "spending_caps",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("workspace_id", sa.Uuid(), nullable=False),
        sa.Column("user_id", sa.Uuid(), nullable=True),
        sa.Column("project_id", sa.Uuid(), nullable=True),
        sa.Column("monthly_limit", BigInt, nullable=False),
        sa.Column("period", sa.String(length=7), nullable=False),
        sa.Column("spent", BigInt, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint(
            "(user_id IS NULL) <> (project_id IS NULL)", name=op.f("ck_spending_caps_one_subject")
        ),
        sa.CheckConstraint("monthly_limit >= 0", name=op.f("ck_spending_caps_limit_not_negative")),
        sa.ForeignKeyConstraint(
            ["workspace_id"],
            ["workspaces.id"],
            name=op.f("fk_spending_caps_workspace_id_workspaces"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["users.id"],
            name=op.f("fk_spending_caps_user_id_users"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["project_id"],
            ["projects.id"],
            name=op.f("fk_spending_caps_project_id_projects"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_spending_caps")),
        sa.UniqueConstraint("workspace_id", "user_id", name="uq_spending_caps_member"),
        sa.UniqueConstraint("workspace_id", "project_id", name="uq_spending_caps_project"),
    )


def downgrade() -> None:
    op.drop_table("spending_caps")
    op.drop_table("stripe_events")
    op.drop_index(op.f("ix_credit_purchases_stripe_charge_id"), table_name="credit_purchases")
    op.drop_index("ix_credit_purchases_workspace", table_name="credit_purchases")
    op.drop_table("credit_purchases")
    op.drop_table("credit_packs")
    with op.batch_alter_table("workspaces", schema=None) as batch_op:
        batch_op.drop_constraint("shortfall_not_negative", type_="check")
        batch_op.drop_column("low_balance_warned")
        batch_op.drop_column("low_balance_threshold")
        batch_op.drop_column("stripe_customer_id")
        batch_op.drop_column("shortfall")
