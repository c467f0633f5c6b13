"""trust: ratings and reviews (with replies and reports), favourites, the agents' rating
aggregate and the operator's featured agents

Revision ID: 0015_ratings
Revises: 0014_schedules
Create Date: 2026-11-25 14:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0015_ratings"
down_revision: str | None = "0014_schedules"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_AGGREGATE = (
    "rating_count",
    "rating_sum",
    "rating_1",
    "rating_2",
    "rating_3",
    "rating_4",
    "rating_5",
)


def upgrade() -> None:
    with op.batch_alter_table("agents", schema=None) as batch_op:
        for name in _AGGREGATE:
            batch_op.add_column(sa.Column(name, sa.Integer(), nullable=False, server_default="0"))
        batch_op.add_column(sa.Column("featured_at", sa.DateTime(timezone=True), nullable=True))
    with op.batch_alter_table("agents", schema=None) as batch_op:
        for name in _AGGREGATE:
            batch_op.alter_column(name, server_default=None)

    op.create_table(
        "ratings",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("job_id", sa.Uuid(), nullable=False),
        sa.Column("agent_id", sa.Uuid(), nullable=False),
        sa.Column("user_id", sa.Uuid(), nullable=False),
        sa.Column("workspace_id", sa.Uuid(), nullable=False),
        sa.Column("stars", sa.Integer(), nullable=False),
        sa.Column("review", sa.Text(), nullable=True),
        sa.Column("reply", sa.Text(), nullable=True),
        sa.Column("reply_user_id", sa.Uuid(), nullable=True),
        sa.Column("replied_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("stars BETWEEN 1 AND 5", name=op.f("ck_ratings_stars_range")),
        sa.ForeignKeyConstraint(
            ["agent_id"], ["agents.id"], name=op.f("fk_ratings_agent_id_agents"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["job_id"], ["jobs.id"], name=op.f("fk_ratings_job_id_jobs"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["reply_user_id"],
            ["users.id"],
            name=op.f("fk_ratings_reply_user_id_users"),
            ondelete="SET NULL",
        ),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_ratings_user_id_users"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["workspace_id"],
            ["workspaces.id"],
            name=op.f("fk_ratings_workspace_id_workspaces"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_ratings")),
        sa.UniqueConstraint("job_id", name=op.f("uq_ratings_job_id")),
    )
    op.create_index("ix_ratings_agent", "ratings", ["agent_id", "created_at", "id"])
    op.create_index("ix_ratings_user", "ratings", ["user_id"])

    op.create_table(
        "rating_reports",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("rating_id", sa.Uuid(), nullable=False),
        sa.Column("user_id", sa.Uuid(), nullable=False),
        sa.Column("reason", sa.String(length=1000), nullable=False),
        sa.Column("resolved_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["rating_id"],
            ["ratings.id"],
            name=op.f("fk_rating_reports_rating_id_ratings"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["users.id"],
            name=op.f("fk_rating_reports_user_id_users"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_rating_reports")),
    )
    op.create_index("ix_rating_reports_open", "rating_reports", ["resolved_at", "created_at"])
    op.create_index(
        "uq_rating_reports_once", "rating_reports", ["rating_id", "user_id"], unique=True
    )

    op.create_table(
        "favourites",
        sa.Column("user_id", sa.Uuid(), nullable=False),
        sa.Column("agent_id", sa.Uuid(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["agent_id"],
            ["agents.id"],
            name=op.f("fk_favourites_agent_id_agents"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_favourites_user_id_users"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("user_id", "agent_id", name=op.f("pk_favourites")),
    )
    op.create_index(op.f("ix_favourites_agent_id"), "favourites", ["agent_id"])


def downgrade() -> None:
    op.drop_table("favourites")
    op.drop_table("rating_reports")
    op.drop_table("ratings")
    with op.batch_alter_table("agents", schema=None) as batch_op:
        batch_op.drop_column("featured_at")
        for name in reversed(_AGGREGATE):
            batch_op.drop_column(name)
