from __future__ import annotations

import uuid
from datetime import datetime

from sqlalchemy import Integer, LargeBinary, String
from sqlalchemy.orm import Mapped, mapped_column

from agora.models.base import Base, Timestamp, created_at_column, foreign_key, id_column


class Passkey(Base):
    """A WebAuthn credential a person registered (docs/accounts.md, "Passkeys"): its id (the
    authenticator's, base64url), its COSE public key and the last signature counter seen. The
    user handle the authenticator keeps is the user's id (16 bytes), so a discoverable credential
    names its account."""

    __tablename__ = "passkeys"

    id: Mapped[uuid.UUID] = id_column()
    user_id: Mapped[uuid.UUID] = foreign_key("users.id", "CASCADE", nullable=False, index=True)
    credential_id: Mapped[str] = mapped_column(String(1400), unique=True, nullable=False)
    public_key: Mapped[bytes] = mapped_column(LargeBinary, nullable=False)
    sign_count: Mapped[int] = mapped_column(Integer, nullable=False, default=0)
    name: Mapped[str] = mapped_column(String(100), nullable=False)
    aaguid: Mapped[str] = mapped_column(String(36), nullable=False, default="")
    transports: Mapped[str] = mapped_column(String(200), nullable=False, default="")
    backed_up: Mapped[bool] = mapped_column(nullable=False, default=False)
    created_at: Mapped[datetime] = created_at_column()
    last_used_at: Mapped[datetime | None] = mapped_column(Timestamp)


class RecoveryCode(Base):
    """One of a person's recovery codes (the second step when the passkey is lost): shown once,
    stored as SHA-256 (80 random bits each), used once (``used_at``, set by a conditional
    UPDATE)."""

    __tablename__ = "recovery_codes"

    id: Mapped[uuid.UUID] = id_column()
    user_id: Mapped[uuid.UUID] = foreign_key("users.id", "CASCADE", nullable=False, index=True)
    code_hash: Mapped[str] = mapped_column(String(64), unique=True, nullable=False)
    created_at: Mapped[datetime] = created_at_column()
    used_at: Mapped[datetime | None] = mapped_column(Timestamp)
