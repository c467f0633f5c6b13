from __future__ import annotations

import uuid
from datetime import datetime

from sqlalchemy import String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from agora.models.base import (
    Base,
    Timestamp,
    created_at_column,
    id_column,
    updated_at_column,
)


class RegistryCheckpoint(Base):
    """Where registry-diff resumes for one feed and network (registry/): the registry's own
    ``statusUpdatedAt`` (its ISO text, as the feed wrote it) and the ``id`` of the last entry
    applied there. Both are sent back as ``statusUpdatedAfter`` and ``cursorId``."""

    __tablename__ = "registry_checkpoints"
    __table_args__ = (
        UniqueConstraint("source", "network", name="uq_registry_checkpoints_source_network"),
    )

    id: Mapped[uuid.UUID] = id_column()
    source: Mapped[str] = mapped_column(String(64), nullable=False)  # sha256 of the feed URL
    network: Mapped[str] = mapped_column(String(20), nullable=False)
    source_url: Mapped[str] = mapped_column(String(2000), nullable=False)
    status_updated_after: Mapped[str] = mapped_column(String(40), nullable=False)
    cursor_id: Mapped[str | None] = mapped_column(String(100))
    # The last complete registry-entry pass: metadata changes that keep the status (a new price,
    # a new description) move no statusUpdatedAt, so only a full pass brings them.
    full_pass_at: Mapped[datetime | None] = mapped_column(Timestamp)
    created_at: Mapped[datetime] = created_at_column()
    updated_at: Mapped[datetime] = updated_at_column()
