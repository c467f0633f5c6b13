"""agent_versions: every approved state of an agent (base URL, input schema, price, changelog);
the version that ran each job, a schedule's pinned version, the agent's current version and its
pending changelog; every existing agent gets version 1

Revision ID: 0024_agent_versions
Revises: 0023_conformance_runs
Create Date: 2026-11-27 21:00:00
"""

import uuid
from collections.abc import Sequence
from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0024_agent_versions"
down_revision: str | None = "0023_conformance_runs"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

JSON = sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql")
BIGINT = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
FIRST_CHANGELOG = "Version 1: the agent as listed when versions began."


def upgrade() -> None:
    versions = op.create_table(
        "agent_versions",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("agent_id", sa.Uuid(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("base_url", sa.String(length=2000), nullable=False),
        sa.Column("input_schema", JSON, nullable=True),
        sa.Column("pricing_type", sa.String(length=20), nullable=False),
        sa.Column("price", BIGINT, nullable=False),
        sa.Column("fee", BIGINT, nullable=False),
        sa.Column("changelog", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["agent_id"],
            ["agents.id"],
            name=op.f("fk_agent_versions_agent_id_agents"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_agent_versions")),
        sa.UniqueConstraint("agent_id", "number", name="uq_agent_versions_number"),
    )
    with op.batch_alter_table("agents", schema=None) as batch_op:
        batch_op.add_column(sa.Column("current_version", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("pending_changelog", sa.Text(), nullable=True))
    with op.batch_alter_table("jobs", schema=None) as batch_op:
        batch_op.add_column(sa.Column("agent_version", sa.Integer(), nullable=True))
    with op.batch_alter_table("schedules", schema=None) as batch_op:
        batch_op.add_column(sa.Column("agent_version", sa.Integer(), nullable=True))

    # Data: every existing agent is version 1, as it stands (jobs already made keep NULL: they
    # ran, or will run, against the agent's own base URL — no rewrite of the jobs table).
    bind = op.get_bind()
    agents = sa.table(
        "agents",
        sa.column("id", sa.Uuid()),
        sa.column("base_url", sa.String()),
        sa.column("input_schema", JSON),
        sa.column("pricing_type", sa.String()),
        sa.column("price", BIGINT),
        sa.column("fee", BIGINT),
        sa.column("current_version", sa.Integer()),
    )
    now = datetime.now(UTC)
    rows = bind.execute(
        sa.select(
            agents.c.id,
            agents.c.base_url,
            agents.c.input_schema,
            agents.c.pricing_type,
            agents.c.price,
            agents.c.fee,
        )
    ).all()
    if rows:
        op.bulk_insert(
            versions,
            [
                {
                    "id": uuid.uuid4(),
                    "agent_id": row.id,
                    "number": 1,
                    "base_url": row.base_url,
                    "input_schema": row.input_schema,
                    "pricing_type": row.pricing_type,
                    "price": row.price,
                    "fee": row.fee,
                    "changelog": FIRST_CHANGELOG,
                    "created_at": now,
                }
                for row in rows
            ],
        )
        bind.execute(sa.update(agents).values(current_version=1))


def downgrade() -> None:
    with op.batch_alter_table("schedules", schema=None) as batch_op:
        batch_op.drop_column("agent_version")
    with op.batch_alter_table("jobs", schema=None) as batch_op:
        batch_op.drop_column("agent_version")
    with op.batch_alter_table("agents", schema=None) as batch_op:
        batch_op.drop_column("pending_changelog")
        batch_op.drop_column("current_version")
    op.drop_table("agent_versions")
