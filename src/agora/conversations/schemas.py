from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from agora.kit.envelopes import ApiModel
from agora.kit.timeutil import isoformat
from agora.models import Conversation, Message

MAX_MESSAGE_CHARS = 100_000


class ConversationOut(BaseModel):
    id: str
    title: str
    description: str
    archived: bool
    archivedAt: str | None
    workspaceId: str
    userId: str
    createdAt: str
    updatedAt: str

    @classmethod
    def of(cls, conversation: Conversation) -> ConversationOut:
        return cls(
            id=str(conversation.id),
            title=conversation.title,
            description=conversation.description,
            archived=conversation.archived_at is not None,
            archivedAt=isoformat(conversation.archived_at),
            workspaceId=str(conversation.workspace_id),
            userId=str(conversation.user_id),
            createdAt=isoformat(conversation.created_at) or "",
            updatedAt=isoformat(conversation.updated_at) or "",
        )


class ConversationCreate(ApiModel):
    title: str = Field(min_length=1, max_length=500)
    description: str = Field(default="", max_length=10_000)


class ConversationUpdate(ApiModel):
    """Rename (and/or redescribe); at least one field, ``null`` refused."""

    title: str | None = Field(default=None, min_length=1, max_length=500)
    description: str | None = Field(default=None, max_length=10_000)


class MessageOut(BaseModel):
    id: str
    conversationId: str
    role: str
    content: str
    authorId: str | None
    createdAt: str

    @classmethod
    def of(cls, message: Message) -> MessageOut:
        return cls(
            id=str(message.id),
            conversationId=str(message.conversation_id),
            role=message.role,
            content=message.content,
            authorId=str(message.author_id) if message.author_id else None,
            createdAt=isoformat(message.created_at) or "",
        )


class MessageCreate(ApiModel):
    role: Literal["user", "assistant", "system"]
    content: str = Field(min_length=1, max_length=MAX_MESSAGE_CHARS)
