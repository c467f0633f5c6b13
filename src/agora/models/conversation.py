from __future__ import annotations

import uuid
from datetime import datetime

from sqlalchemy import Index, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from agora.models.base import (
    Base,
    Timestamp,
    created_at_column,
    foreign_key,
    id_column,
    updated_at_column,
)


class Conversation(Base):
    """Owned by one user (conversations never widen to workspace scope)."""

    __tablename__ = "conversations"
    __table_args__ = (
        Index("ix_conversations_feed_user", "workspace_id", "user_id", "updated_at", "id"),
    )

    id: Mapped[uuid.UUID] = id_column()
    workspace_id: Mapped[uuid.UUID] = foreign_key("workspaces.id", "CASCADE", nullable=False)
    user_id: Mapped[uuid.UUID] = foreign_key("users.id", "CASCADE", nullable=False)
    title: Mapped[str] = mapped_column(String(500), nullable=False)
    description: Mapped[str] = mapped_column(Text, nullable=False, default="")
    archived_at: Mapped[datetime | None] = mapped_column(Timestamp)
    created_at: Mapped[datetime] = created_at_column()
    updated_at: Mapped[datetime] = updated_at_column()


class Message(Base):
    __tablename__ = "messages"
    __table_args__ = (Index("ix_messages_conversation", "conversation_id", "created_at", "id"),)

    id: Mapped[uuid.UUID] = id_column()
    conversation_id: Mapped[uuid.UUID] = foreign_key("conversations.id", "CASCADE", nullable=False)
    role: Mapped[str] = mapped_column(String(20), nullable=False)  # user | assistant | system
    content: Mapped[str] = mapped_column(Text, nullable=False)
    author_id: Mapped[uuid.UUID | None] = foreign_key("users.id", "SET NULL")
    created_at: Mapped[datetime] = created_at_column()
