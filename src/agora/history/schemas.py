from __future__ import annotations

from typing import Annotated, Literal
from uuid import UUID

from pydantic import BaseModel, Field, field_validator

from agora.kit.schemas import Credits, Schema, UtcDateTime


class WorkItem(Schema):
    """A task or a job (interface §2.6): ``credits`` is its net spend in display units.
    Read from a ``history.repository.Row`` (tasks carry their jobs' summed spend)."""

    kind: Literal["task", "job"]
    id: UUID
    title: str
    status: str
    credits: Credits = Field(validation_alias="net_spend")
    project_id: UUID | None
    created_at: UtcDateTime
    updated_at: UtcDateTime

    @field_validator("status", mode="before")
    @classmethod
    def _status(cls, status: str | None) -> str:
        return status or ""

    @field_validator("credits", mode="before")
    @classmethod
    def _credits(cls, net_spend: int | None) -> int:
        return net_spend or 0


class ConversationItem(Schema):
    """A conversation: no status, credits or projectId (the keys are absent, not null)."""

    kind: Literal["conversation"]
    id: UUID
    title: str
    created_at: UtcDateTime
    updated_at: UtcDateTime


HistoryItem = Annotated[WorkItem | ConversationItem, Field(discriminator="kind")]


class HistoryPagination(BaseModel):
    cursor: str | None = Field(description="Send it back for the next page; null on the last")
    hasMore: bool
    limit: int


class HistoryPage(BaseModel):
    items: list[HistoryItem]
    pagination: HistoryPagination
