from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from sqlalchemy import Index, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from agora.models.base import (
    Base,
    JSONType,
    Timestamp,
    created_at_column,
    foreign_key,
    id_column,
    updated_at_column,
)
from agora.models.statuses import TaskStatus


class Task(Base):
    __tablename__ = "tasks"
    __table_args__ = (
        # History feed keyset order, per workspace and per creator.
        Index("ix_tasks_feed_workspace", "workspace_id", "updated_at", "id"),
        Index("ix_tasks_feed_creator", "workspace_id", "creator_id", "updated_at", "id"),
        Index("ix_tasks_project", "project_id"),
        # The feed filtered by project (or unassigned): keyset order within the project.
        Index("ix_tasks_feed_project", "workspace_id", "project_id", "updated_at", "id"),
        Index("ix_tasks_coworker", "coworker_id"),
        # "My tasks": the tasks assigned to a person, in feed order.
        Index("ix_tasks_assignee", "workspace_id", "assignee_user_id", "updated_at", "id"),
    )

    id: Mapped[uuid.UUID] = id_column()
    workspace_id: Mapped[uuid.UUID] = foreign_key("workspaces.id", "CASCADE", nullable=False)
    creator_id: Mapped[uuid.UUID] = foreign_key("users.id", "CASCADE", nullable=False)
    name: Mapped[str] = mapped_column(String(500), nullable=False)
    description: Mapped[str] = mapped_column(Text, nullable=False, default="")
    status: Mapped[str] = mapped_column(String(40), nullable=False, default=TaskStatus.PENDING)
    project_id: Mapped[uuid.UUID | None] = foreign_key("projects.id", "SET NULL")
    archived_at: Mapped[datetime | None] = mapped_column(Timestamp)
    # The workflow (docs/tasks.md): the assignee coworker, where the task came from, free metadata.
    coworker_id: Mapped[uuid.UUID | None] = foreign_key("coworkers.id", "SET NULL")
    # The assignee is a member of the workspace (``assignee_user_id``) or a coworker
    # (``coworker_id``), never both (docs/tasks.md, "People on tasks").
    assignee_user_id: Mapped[uuid.UUID | None] = foreign_key("users.id", "SET NULL")
    origin: Mapped[str | None] = mapped_column(String(20))
    channel: Mapped[str | None] = mapped_column(String(20))
    meta: Mapped[dict[str, Any] | None] = mapped_column("metadata", JSONType)
    created_at: Mapped[datetime] = created_at_column()
    updated_at: Mapped[datetime] = updated_at_column()
