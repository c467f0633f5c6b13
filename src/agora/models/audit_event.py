from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from sqlalchemy import Index, String, Uuid
from sqlalchemy.orm import Mapped, mapped_column

from agora.models.base import Base, JSONType, created_at_column, id_column


class AuditEvent(Base):
    """One security- or money-relevant action (audit/; docs/operations.md, "The audit log").

    Append-only: written by ``audit.record`` in the action's own transaction, never updated; the
    retention sweep (``agora audit prune``) is the only delete. ``details`` holds non-secret facts
    (ids, amounts, roles, reasons), never a key, token or password.
    """

    __tablename__ = "audit_events"
    __table_args__ = (
        Index("ix_audit_events_organization_time", "organization_id", "created_at"),
        Index("ix_audit_events_target", "target_kind", "target_id"),
    )

    id: Mapped[uuid.UUID] = id_column()
    created_at: Mapped[datetime] = created_at_column()
    action: Mapped[str] = mapped_column(String(60), nullable=False, index=True)
    # user | key | coworker | admin | system
    actor_kind: Mapped[str] = mapped_column(String(20), nullable=False)
    actor_id: Mapped[uuid.UUID | None] = mapped_column(Uuid())  # user id (key: its owner's)
    actor_key_id: Mapped[uuid.UUID | None] = mapped_column(Uuid())  # the key or session used
    target_kind: Mapped[str] = mapped_column(String(30), nullable=False, default="")
    target_id: Mapped[str] = mapped_column(String(100), nullable=False, default="")
    workspace_id: Mapped[uuid.UUID | None] = mapped_column(Uuid())
    organization_id: Mapped[uuid.UUID | None] = mapped_column(Uuid())
    request_id: Mapped[str] = mapped_column(String(100), nullable=False, default="")
    client_address: Mapped[str] = mapped_column(String(64), nullable=False, default="")
    details: Mapped[dict[str, Any]] = mapped_column(JSONType, nullable=False, default=dict)
