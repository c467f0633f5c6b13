from __future__ import annotations

import uuid
from datetime import datetime

from sqlalchemy.orm import Mapped

from agora.models.base import Base, created_at_column, foreign_key


class AssistantAgent(Base):
    """An agent a person chose with "add to my assistant": with their favourites, it is one of
    their MCP tools of its own (``hire_<slug>``, docs/mcp.md, "Your toolbox")."""

    __tablename__ = "assistant_agents"

    user_id: Mapped[uuid.UUID] = foreign_key("users.id", "CASCADE", primary_key=True)
    agent_id: Mapped[uuid.UUID] = foreign_key("agents.id", "CASCADE", primary_key=True, index=True)
    created_at: Mapped[datetime] = created_at_column()
