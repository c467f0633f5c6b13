from __future__ import annotations

import uuid
from datetime import datetime

from sqlalchemy import Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from agora.models.base import Base, Timestamp, created_at_column, foreign_key, id_column


class AccountToken(Base):
    """One mechanism for every emailed or shared link: email verification, password reset,
    magic-link sign-in and organization invitations.

    Only the SHA-256 of the secret is stored. A token is used with one conditional UPDATE
    (``uses < max_uses``, not revoked, not expired), so a single-use token works once even under
    concurrency. Invitations carry the organization and role; an emailed invitation also the
    address it is for (``email``); a shareable link has no address and may allow several uses.
    """

    __tablename__ = "account_tokens"

    id: Mapped[uuid.UUID] = id_column()
    # verify_email | reset_password | magic_link | invitation
    purpose: Mapped[str] = mapped_column(String(20), nullable=False)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True, nullable=False)
    user_id: Mapped[uuid.UUID | None] = foreign_key("users.id", "CASCADE", index=True)
    email: Mapped[str | None] = mapped_column(String(320))
    organization_id: Mapped[uuid.UUID | None] = foreign_key(
        "organizations.id", "CASCADE", index=True
    )
    role: Mapped[str | None] = mapped_column(String(20))
    created_by: Mapped[uuid.UUID | None] = foreign_key("users.id", "SET NULL")
    max_uses: Mapped[int] = mapped_column(Integer, nullable=False, default=1)
    uses: Mapped[int] = mapped_column(Integer, nullable=False, default=0)
    created_at: Mapped[datetime] = created_at_column()
    expires_at: Mapped[datetime] = mapped_column(Timestamp, nullable=False)
    revoked_at: Mapped[datetime | None] = mapped_column(Timestamp)
    last_used_at: Mapped[datetime | None] = mapped_column(Timestamp)
