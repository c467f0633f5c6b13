"""A person's rights to their data (users/, docs/accounts.md, "Your data" and "Deleting your
account"): the data exports they asked for and their requests to delete their account."""

from __future__ import annotations

import uuid
from datetime import datetime

from sqlalchemy import Index, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from agora.models.base import Base, BigInt, Timestamp, created_at_column, foreign_key, id_column


class DataExport(Base):
    """One export of everything Agora holds about a person, as a ZIP of JSON files.

    ``state``: pending (the export worker has not built it yet) → ready (the ZIP is in storage
    under ``storage_key`` and a one-time link was mailed; only the SHA-256 of its secret is kept
    in ``token_hash``) → downloaded | expired | failed (``error``). The worker claims a pending
    export with a lease (``lease_expires_at``) and deletes the blob once it is downloaded or
    ``expires_at`` passed."""

    __tablename__ = "data_exports"
    __table_args__ = (Index("ix_data_exports_state", "state", "created_at"),)

    id: Mapped[uuid.UUID] = id_column()
    user_id: Mapped[uuid.UUID] = foreign_key("users.id", "CASCADE", nullable=False, index=True)
    state: Mapped[str] = mapped_column(String(20), nullable=False, default="pending")
    storage_key: Mapped[str | None] = mapped_column(String(300))
    size: Mapped[int | None] = mapped_column(BigInt)
    token_hash: Mapped[str | None] = mapped_column(String(64), unique=True)
    error: Mapped[str | None] = mapped_column(Text)
    lease_expires_at: Mapped[datetime | None] = mapped_column(Timestamp)
    created_at: Mapped[datetime] = created_at_column()
    ready_at: Mapped[datetime | None] = mapped_column(Timestamp)
    expires_at: Mapped[datetime | None] = mapped_column(Timestamp)
    downloaded_at: Mapped[datetime | None] = mapped_column(Timestamp)


class AccountDeletion(Base):
    """A person's request to delete their account (one row per person; a new request replaces an
    ended one).

    ``state``: requested (a confirmation link was mailed; only its SHA-256 is kept) → scheduled
    (confirmed: the account is erased once ``erase_after`` passed, unless the person signs in
    first) → cancelled (they signed in, or cancelled in settings) | erased (done)."""

    __tablename__ = "account_deletions"
    __table_args__ = (Index("ix_account_deletions_due", "state", "erase_after"),)

    user_id: Mapped[uuid.UUID] = foreign_key("users.id", "CASCADE", primary_key=True)
    state: Mapped[str] = mapped_column(String(20), nullable=False)
    token_hash: Mapped[str | None] = mapped_column(String(64), unique=True)
    requested_at: Mapped[datetime] = created_at_column()
    token_expires_at: Mapped[datetime | None] = mapped_column(Timestamp)
    confirmed_at: Mapped[datetime | None] = mapped_column(Timestamp)
    erase_after: Mapped[datetime | None] = mapped_column(Timestamp)
    cancelled_at: Mapped[datetime | None] = mapped_column(Timestamp)
    erased_at: Mapped[datetime | None] = mapped_column(Timestamp)
