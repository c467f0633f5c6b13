from __future__ import annotations

from typing import Literal
from uuid import UUID

from pydantic import Field, field_validator

from agora.kit.envelopes import ApiModel
from agora.kit.schemas import Schema, UtcDateTime

MAX_MESSAGE_CHARS = 100_000


class ConversationOut(Schema):
    """Read from a ``Conversation`` row."""

    id: UUID
    title: str
    description: str
    archived: bool = Field(validation_alias="archived_at")
    archived_at: UtcDateTime | None
    workspace_id: UUID
    user_id: UUID
    created_at: UtcDateTime
    updated_at: UtcDateTime

    @field_validator("archived", mode="before")
    @classmethod
    def _archived(cls, archived_at: object) -> bool:
        return archived_at is not None


class ConversationCreate(ApiModel):
    title: str = Field(min_length=1, max_length=500)
    description: str = Field(default="", max_length=10_000)


class ConversationUpdate(ApiModel):
    """Rename (and/or redescribe); at least one field, ``null`` refused."""

    title: str | None = Field(default=None, min_length=1, max_length=500)
    description: str | None = Field(default=None, max_length=10_000)


class MessageOut(Schema):
    """Read from a ``Message`` row."""

    id: UUID
    conversation_id: UUID
    role: str
    content: str
    author_id: UUID | None
    created_at: UtcDateTime


class MessageCreate(ApiModel):
    role: Literal["user", "assistant", "system"]
    content: str = Field(min_length=1, max_length=MAX_MESSAGE_CHARS)
