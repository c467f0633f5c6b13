"""oauth: registered clients, grants (refresh-token families), codes and tokens (hashed), device
authorization requests

Revision ID: 0011_oauth
Revises: 0010_billing
Create Date: 2026-11-25 14:15:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0011_oauth"
down_revision: str | None = "0010_billing"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

JSONType = sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql")
Timestamp = sa.DateTime(timezone=True)


def _fk(table: str, column: str, target: str, ondelete: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint(
        [column], [f"{target}.id"], name=op.f(f"fk_{table}_{column}_{target}"), ondelete=ondelete
    )


def upgrade() -> None:
    op.create_table(
        "oauth_clients",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("client_id", sa.String(length=64), nullable=False),
        sa.Column("secret_hash", sa.String(length=64), nullable=True),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("client_uri", sa.String(length=500), nullable=False),
        sa.Column("redirect_uris", JSONType, nullable=False),
        sa.Column("grant_types", JSONType, nullable=False),
        sa.Column("auth_method", sa.String(length=30), nullable=False),
        sa.Column("created_at", Timestamp, nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_oauth_clients")),
        sa.UniqueConstraint("client_id", name=op.f("uq_oauth_clients_client_id")),
    )
    op.create_table(
        "oauth_grants",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("client_pk", sa.Uuid(), nullable=False),
        sa.Column("user_id", sa.Uuid(), nullable=False),
        sa.Column("workspace_id", sa.Uuid(), nullable=False),
        sa.Column("scopes", JSONType, nullable=False),
        sa.Column("created_at", Timestamp, nullable=False),
        sa.Column("last_used_at", Timestamp, nullable=True),
        sa.Column("revoked_at", Timestamp, nullable=True),
        sa.Column("revoked_reason", sa.String(length=30), nullable=False),
        _fk("oauth_grants", "client_pk", "oauth_clients", "CASCADE"),
        _fk("oauth_grants", "user_id", "users", "CASCADE"),
        _fk("oauth_grants", "workspace_id", "workspaces", "CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_oauth_grants")),
    )
    with op.batch_alter_table("oauth_grants", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_oauth_grants_client_pk"), ["client_pk"], unique=False)
        batch_op.create_index(batch_op.f("ix_oauth_grants_user_id"), ["user_id"], unique=False)
    op.create_table(
        "oauth_tokens",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("grant_id", sa.Uuid(), nullable=False),
        sa.Column("kind", sa.String(length=10), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("created_at", Timestamp, nullable=False),
        sa.Column("expires_at", Timestamp, nullable=False),
        sa.Column("used_at", Timestamp, nullable=True),
        sa.Column("revoked_at", Timestamp, nullable=True),
        sa.Column("code_challenge", sa.String(length=128), nullable=True),
        sa.Column("redirect_uri", sa.String(length=2000), nullable=True),
        _fk("oauth_tokens", "grant_id", "oauth_grants", "CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_oauth_tokens")),
        sa.UniqueConstraint("token_hash", name=op.f("uq_oauth_tokens_token_hash")),
    )
    with op.batch_alter_table("oauth_tokens", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_oauth_tokens_grant_id"), ["grant_id"], unique=False)
    op.create_table(
        "oauth_device_codes",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("client_pk", sa.Uuid(), nullable=False),
        sa.Column("device_hash", sa.String(length=64), nullable=False),
        sa.Column("user_code", sa.String(length=16), nullable=False),
        sa.Column("scopes", JSONType, nullable=False),
        sa.Column("interval", sa.Integer(), nullable=False),
        sa.Column("created_at", Timestamp, nullable=False),
        sa.Column("expires_at", Timestamp, nullable=False),
        sa.Column("last_polled_at", Timestamp, nullable=True),
        sa.Column("grant_id", sa.Uuid(), nullable=True),
        sa.Column("denied_at", Timestamp, nullable=True),
        sa.Column("used_at", Timestamp, nullable=True),
        _fk("oauth_device_codes", "client_pk", "oauth_clients", "CASCADE"),
        _fk("oauth_device_codes", "grant_id", "oauth_grants", "CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_oauth_device_codes")),
        sa.UniqueConstraint("device_hash", name=op.f("uq_oauth_device_codes_device_hash")),
        sa.UniqueConstraint("user_code", name=op.f("uq_oauth_device_codes_user_code")),
    )
    with op.batch_alter_table("oauth_device_codes", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_oauth_device_codes_client_pk"), ["client_pk"], unique=False
        )


def downgrade() -> None:
    with op.batch_alter_table("oauth_device_codes", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_oauth_device_codes_client_pk"))
    op.drop_table("oauth_device_codes")
    with op.batch_alter_table("oauth_tokens", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_oauth_tokens_grant_id"))
    op.drop_table("oauth_tokens")
    with op.batch_alter_table("oauth_grants", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_oauth_grants_user_id"))
        batch_op.drop_index(batch_op.f("ix_oauth_grants_client_pk"))
    op.drop_table("oauth_grants")
    op.drop_table("oauth_clients")
