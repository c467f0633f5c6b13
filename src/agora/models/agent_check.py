from __future__ import annotations

import uuid
from datetime import datetime

from sqlalchemy import Boolean, Index, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from agora.models.base import Base, created_at_column, foreign_key, id_column


class AgentCheck(Base):
    """One live MIP-003 check of an agent (submission, review, periodic availability)."""

    __tablename__ = "agent_checks"
    __table_args__ = (Index("ix_agent_checks_agent", "agent_id", "checked_at", "id"),)

    id: Mapped[uuid.UUID] = id_column()
    agent_id: Mapped[uuid.UUID] = foreign_key("agents.id", "CASCADE", nullable=False)
    kind: Mapped[str] = mapped_column(String(20), nullable=False)  # submit | review | periodic
    available: Mapped[bool] = mapped_column(Boolean, nullable=False)
    message: Mapped[str | None] = mapped_column(Text)
    checked_at: Mapped[datetime] = created_at_column()
