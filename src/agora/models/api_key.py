from __future__ import annotations

import uuid
from datetime import datetime

from sqlalchemy import String, Uuid
from sqlalchemy.orm import Mapped, mapped_column

from agora.models.base import Base, JSONType, Timestamp, created_at_column, foreign_key, id_column


class ApiKey(Base):
    """An API key. Only the SHA-256 of the secret is stored; ``prefix`` is for display."""

    __tablename__ = "api_keys"

    id: Mapped[uuid.UUID] = id_column()
    user_id: Mapped[uuid.UUID] = foreign_key("users.id", "CASCADE", nullable=False, index=True)
    kind: Mapped[str] = mapped_column(String(20), nullable=False)  # user | coworker | admin
    name: Mapped[str] = mapped_column(String(200), nullable=False, default="")
    prefix: Mapped[str] = mapped_column(String(32), nullable=False)
    key_hash: Mapped[str] = mapped_column(String(64), unique=True, nullable=False)
    default_workspace_id: Mapped[uuid.UUID] = foreign_key(
        "workspaces.id", "CASCADE", nullable=False
    )
    # Extra grants for coworker keys, e.g. ["jobs:write", "profile:write"].
    scopes: Mapped[list[str]] = mapped_column(JSONType, nullable=False, default=list)
    created_at: Mapped[datetime] = created_at_column()
    last_used_at: Mapped[datetime | None] = mapped_column(Timestamp)
    revoked_at: Mapped[datetime | None] = mapped_column(Timestamp)
    expires_at: Mapped[datetime | None] = mapped_column(Timestamp)
    # The browser session that made it (null: made with a key, the CLI, or before this column);
    # a password reset revokes the keys sessions made (docs/accounts.md).
    created_by_session_id: Mapped[uuid.UUID | None] = mapped_column(Uuid())
