from __future__ import annotations

import uuid
from datetime import datetime

from sqlalchemy import Boolean, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from agora.models.base import Base, Timestamp, created_at_column, foreign_key, id_column


class UserIdentity(Base):
    """A person's account at an identity provider, linked to their Agora account
    (docs/accounts.md, "Identity providers").

    The key is the provider's identity, ``(issuer, subject)``: the ID token's ``iss`` and ``sub``
    (GitHub: its web URL and the numeric user id). The email is what the provider said at the
    last sign-in, kept for display and the organizations' domain rule; it never finds an account.
    """

    __tablename__ = "user_identities"
    __table_args__ = (UniqueConstraint("issuer", "subject"),)

    id: Mapped[uuid.UUID] = id_column()
    user_id: Mapped[uuid.UUID] = foreign_key("users.id", "CASCADE", nullable=False, index=True)
    provider: Mapped[str] = mapped_column(String(20), nullable=False)  # google | microsoft | …
    issuer: Mapped[str] = mapped_column(String(500), nullable=False)
    subject: Mapped[str] = mapped_column(String(255), nullable=False)
    email: Mapped[str | None] = mapped_column(String(320))
    email_verified: Mapped[bool] = mapped_column(Boolean, nullable=False, default=False)
    created_at: Mapped[datetime] = created_at_column()
    last_used_at: Mapped[datetime | None] = mapped_column(Timestamp)
