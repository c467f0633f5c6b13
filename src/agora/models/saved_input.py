from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from sqlalchemy import Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from agora.models.base import (
    Base,
    JSONType,
    created_at_column,
    foreign_key,
    id_column,
    updated_at_column,
)


class SavedInput(Base):
    """A person's named input for one agent (docs/agents.md, "Saved inputs"), in one workspace:
    it fills the hire form, starts a schedule, or is sent by MCP's ``create_job``.
    ``agent_version`` pins a version; NULL follows the latest compatible one."""

    __tablename__ = "saved_inputs"
    __table_args__ = (
        Index("ix_saved_inputs_owner", "workspace_id", "user_id", "agent_id", "created_at"),
        Index("ix_saved_inputs_agent", "agent_id"),
    )

    id: Mapped[uuid.UUID] = id_column()
    workspace_id: Mapped[uuid.UUID] = foreign_key("workspaces.id", "CASCADE", nullable=False)
    user_id: Mapped[uuid.UUID] = foreign_key("users.id", "CASCADE", nullable=False)
    agent_id: Mapped[uuid.UUID] = foreign_key("agents.id", "CASCADE", nullable=False)
    name: Mapped[str] = mapped_column(String(200), nullable=False)
    input_data: Mapped[dict[str, Any]] = mapped_column(JSONType, nullable=False, default=dict)
    agent_version: Mapped[int | None] = mapped_column(Integer)
    created_at: Mapped[datetime] = created_at_column()
    updated_at: Mapped[datetime] = updated_at_column()
