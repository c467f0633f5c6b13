from __future__ import annotations

import uuid
from datetime import datetime

from sqlalchemy import Index
from sqlalchemy.orm import Mapped

from agora.models.base import Base, created_at_column, foreign_key


class TaskParticipant(Base):
    """A person taking part in a task beside its assignee (a member of the task's workspace)."""

    __tablename__ = "task_participants"
    __table_args__ = (Index("ix_task_participants_user", "user_id"),)

    task_id: Mapped[uuid.UUID] = foreign_key("tasks.id", "CASCADE", primary_key=True)
    user_id: Mapped[uuid.UUID] = foreign_key("users.id", "CASCADE", primary_key=True)
    created_at: Mapped[datetime] = created_at_column()
