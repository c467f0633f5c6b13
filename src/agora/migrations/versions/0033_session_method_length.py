"""browser session methods long enough for a provider and its second step
("idp_microsoft+recovery": the passkey second step now follows an identity provider's sign-in)

Revision ID: 0033_session_method_length
Revises: 0032_payouts_connected_accounts
Create Date: 2026-11-28 04:42:22
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0033_session_method_length"
down_revision: str | None = "0032_payouts_connected_accounts"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("browser_sessions", schema=None) as batch_op:
        batch_op.alter_column(
            "method", existing_type=sa.String(length=20), type_=sa.String(length=40),
            existing_nullable=False,
        )  # fmt: skip


def downgrade() -> None:
    # A method longer than the old column is cut to it (it only says how the session began).
    op.execute(
        "UPDATE browser_sessions SET method = substr(method, 1, 20) WHERE length(method) > 20"
    )
    with op.batch_alter_table("browser_sessions", schema=None) as batch_op:
        batch_op.alter_column(
            "method", existing_type=sa.String(length=40), type_=sa.String(length=20),
            existing_nullable=False,
        )  # fmt: skip
