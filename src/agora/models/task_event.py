from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from sqlalchemy import Index, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from agora.models.base import (
    Base,
    BigInt,
    JSONType,
    created_at_column,
    foreign_key,
    id_column,
    updated_at_column,
)


class TaskEvent(Base):
    """One entry of a task's timeline: a comment, a status move, credits, an authentication URL.

    ``actor_type`` is user | coworker | orchestrator (null when unknown). ``kind`` is null for a
    comment or status move, ``assignment`` or ``participants`` for a change of the people on the
    task, with ``change`` saying what changed (docs/tasks.md).
    """

    __tablename__ = "task_events"
    __table_args__ = (Index("ix_task_events_task", "task_id", "created_at", "id"),)

    id: Mapped[uuid.UUID] = id_column()
    task_id: Mapped[uuid.UUID] = foreign_key("tasks.id", "CASCADE", nullable=False)
    status: Mapped[str | None] = mapped_column(String(40))
    comment: Mapped[str | None] = mapped_column(Text)
    credits: Mapped[int | None] = mapped_column(BigInt)
    authentication_url: Mapped[str | None] = mapped_column(String(2000))
    meta: Mapped[dict[str, Any] | None] = mapped_column("metadata", JSONType)
    actor_type: Mapped[str | None] = mapped_column(String(20))
    actor_user_id: Mapped[uuid.UUID | None] = foreign_key("users.id", "SET NULL")
    actor_coworker_id: Mapped[uuid.UUID | None] = foreign_key("coworkers.id", "SET NULL")
    kind: Mapped[str | None] = mapped_column(String(20))
    change: Mapped[dict[str, Any] | None] = mapped_column(JSONType)
    channel: Mapped[str | None] = mapped_column(String(20))
    origin: Mapped[str | None] = mapped_column(String(20))
    created_at: Mapped[datetime] = created_at_column()
    updated_at: Mapped[datetime] = updated_at_column()
