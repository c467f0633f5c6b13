from __future__ import annotations

import uuid
from datetime import datetime

from sqlalchemy import String
from sqlalchemy.orm import Mapped, mapped_column

from agora.models.base import Base, Timestamp, created_at_column, foreign_key, id_column


class BrowserSession(Base):
    """A signed-in browser. The cookie holds a random secret; only its SHA-256 is stored.

    Revocable (``revoked_at``), expiring (``expires_at``), listable per user. ``workspace_id`` is
    the workspace the browser switched to (null: the personal workspace).
    """

    __tablename__ = "browser_sessions"

    id: Mapped[uuid.UUID] = id_column()
    user_id: Mapped[uuid.UUID] = foreign_key("users.id", "CASCADE", nullable=False, index=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True, nullable=False)
    workspace_id: Mapped[uuid.UUID | None] = foreign_key("workspaces.id", "SET NULL")
    # password | magic_link | idp_<provider>, and its second step ("idp_microsoft+recovery")
    method: Mapped[str] = mapped_column(String(40), nullable=False)
    user_agent: Mapped[str] = mapped_column(String(300), nullable=False, default="")
    client_address: Mapped[str] = mapped_column(String(64), nullable=False, default="")
    created_at: Mapped[datetime] = created_at_column()
    last_seen_at: Mapped[datetime | None] = mapped_column(Timestamp)
    expires_at: Mapped[datetime] = mapped_column(Timestamp, nullable=False)
    revoked_at: Mapped[datetime | None] = mapped_column(Timestamp)
    # The last proof of the password or a fresh magic link (null: the sign-in, ``created_at``);
    # creating a key from the session needs one within AGORA_KEY_REAUTH_MINUTES.
    authenticated_at: Mapped[datetime | None] = mapped_column(Timestamp)
