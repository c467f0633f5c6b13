from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from sqlalchemy import String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from agora.models.base import (
    Base,
    JSONType,
    Timestamp,
    created_at_column,
    id_column,
    updated_at_column,
)


class RegistryQuarantine(Base):
    """A registry feed entry that could not be imported, kept with the reason (registry/).

    One row per (feed, entry key): a re-sync updates it, a fixed entry removes it. An operator's
    dismissal (``dismissed_at``) hides it; a sync leaves a dismissed row alone while the entry is
    unchanged, and quarantines it again when the entry changes.
    """

    __tablename__ = "registry_quarantine"
    __table_args__ = (UniqueConstraint("source", "entry_key", name="uq_registry_quarantine_entry"),)

    id: Mapped[uuid.UUID] = id_column()
    source: Mapped[str] = mapped_column(String(64), nullable=False)  # sha256 of the feed URL
    source_url: Mapped[str] = mapped_column(String(2000), nullable=False)
    entry_key: Mapped[str] = mapped_column(String(500), nullable=False)
    reason: Mapped[str] = mapped_column(Text, nullable=False)
    entry: Mapped[dict[str, Any]] = mapped_column(JSONType, nullable=False, default=dict)
    dismissed_at: Mapped[datetime | None] = mapped_column(Timestamp, nullable=True)
    dismissed_reason: Mapped[str | None] = mapped_column(Text, nullable=True)
    created_at: Mapped[datetime] = created_at_column()
    updated_at: Mapped[datetime] = updated_at_column()
