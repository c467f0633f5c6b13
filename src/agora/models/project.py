from __future__ import annotations

import uuid
from datetime import datetime

from sqlalchemy import Index, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from agora.models.base import Base, created_at_column, foreign_key, id_column, updated_at_column


class Project(Base):
    __tablename__ = "projects"
    __table_args__ = (Index("ix_projects_workspace_order", "workspace_id", "updated_at", "id"),)

    id: Mapped[uuid.UUID] = id_column()
    workspace_id: Mapped[uuid.UUID] = foreign_key("workspaces.id", "CASCADE", nullable=False)
    name: Mapped[str] = mapped_column(String(200), nullable=False)
    description: Mapped[str] = mapped_column(Text, nullable=False, default="")
    created_by: Mapped[uuid.UUID | None] = foreign_key("users.id", "SET NULL")
    created_at: Mapped[datetime] = created_at_column()
    updated_at: Mapped[datetime] = updated_at_column()
