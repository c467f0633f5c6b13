from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from sqlalchemy import Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from agora.models.base import Base, BigInt, JSONType, created_at_column, foreign_key, id_column


class AgentVersion(Base):
    """An approved state of an agent: what a job runs against (docs/developer.md, "Versions").
    Written once, never changed: a change of the base URL, the input schema or the price makes
    the next ``number`` (1, 2, 3 … per agent) when it is approved; ``changelog`` is the
    developer's text given with the change."""

    __tablename__ = "agent_versions"
    __table_args__ = (UniqueConstraint("agent_id", "number", name="uq_agent_versions_number"),)

    id: Mapped[uuid.UUID] = id_column()
    agent_id: Mapped[uuid.UUID] = foreign_key("agents.id", "CASCADE", nullable=False)
    number: Mapped[int] = mapped_column(Integer, nullable=False)
    base_url: Mapped[str] = mapped_column(String(2000), nullable=False)
    input_schema: Mapped[dict[str, Any] | None] = mapped_column(JSONType)
    pricing_type: Mapped[str] = mapped_column(String(20), nullable=False)
    price: Mapped[int] = mapped_column(BigInt, nullable=False)
    fee: Mapped[int] = mapped_column(BigInt, nullable=False)
    changelog: Mapped[str] = mapped_column(Text, nullable=False, default="")
    created_at: Mapped[datetime] = created_at_column()
