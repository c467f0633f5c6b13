"""One rating per person per agent: duplicates folded (the latest kept), the agents' aggregates
counted again from what is left, and a unique index on ratings (user_id, agent_id)

Revision ID: 0022_one_rating_per_person
Revises: 0021_webhook_endpoints
Create Date: 2026-11-27 18:15:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0022_one_rating_per_person"
down_revision: str | None = "0021_webhook_endpoints"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# A person's ratings of one agent that a later one (created later, or at the same moment with a
# greater id: ids are UUIDv7, in creation order) supersedes. Deterministic on both databases.
FOLD_REPORTS = (
    "DELETE FROM rating_reports WHERE rating_id IN (SELECT r.id FROM ratings r WHERE EXISTS ("
    "SELECT 1 FROM ratings later WHERE later.user_id = r.user_id"
    " AND later.agent_id = r.agent_id AND (later.created_at > r.created_at"
    " OR (later.created_at = r.created_at AND later.id > r.id))))"
)
FOLD_RATINGS = (
    "DELETE FROM ratings WHERE id IN (SELECT r.id FROM ratings r WHERE EXISTS ("
    "SELECT 1 FROM ratings later WHERE later.user_id = r.user_id"
    " AND later.agent_id = r.agent_id AND (later.created_at > r.created_at"
    " OR (later.created_at = r.created_at AND later.id > r.id))))"
)
RECOUNT = (
    "UPDATE agents SET"
    " rating_count = (SELECT COUNT(*) FROM ratings r WHERE r.agent_id = agents.id),"
    " rating_sum = (SELECT COALESCE(SUM(r.stars), 0) FROM ratings r"
    " WHERE r.agent_id = agents.id),"
    " rating_1 = (SELECT COUNT(*) FROM ratings r WHERE r.agent_id = agents.id AND r.stars = 1),"
    " rating_2 = (SELECT COUNT(*) FROM ratings r WHERE r.agent_id = agents.id AND r.stars = 2),"
    " rating_3 = (SELECT COUNT(*) FROM ratings r WHERE r.agent_id = agents.id AND r.stars = 3),"
    " rating_4 = (SELECT COUNT(*) FROM ratings r WHERE r.agent_id = agents.id AND r.stars = 4),"
    " rating_5 = (SELECT COUNT(*) FROM ratings r WHERE r.agent_id = agents.id AND r.stars = 5)"
)


def upgrade() -> None:
    # Reports of a folded rating go with it (explicitly: SQLite may run without foreign keys).
    op.execute(sa.text(FOLD_REPORTS))
    op.execute(sa.text(FOLD_RATINGS))
    op.execute(sa.text(RECOUNT))
    op.create_index("uq_ratings_user_agent", "ratings", ["user_id", "agent_id"], unique=True)


def downgrade() -> None:
    op.drop_index("uq_ratings_user_agent", table_name="ratings")
