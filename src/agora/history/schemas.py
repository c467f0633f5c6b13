from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field


class WorkItem(BaseModel):
    """A task or a job (interface §2.6): ``credits`` is its net spend in display units."""

    kind: Literal["task", "job"]
    id: str
    title: str
    status: str
    credits: float
    projectId: str | None
    createdAt: str
    updatedAt: str


class ConversationItem(BaseModel):
    """A conversation: no status, credits or projectId (the keys are absent, not null)."""

    kind: Literal["conversation"]
    id: str
    title: str
    createdAt: str
    updatedAt: str


HistoryItem = Annotated[WorkItem | ConversationItem, Field(discriminator="kind")]


class HistoryPagination(BaseModel):
    cursor: str | None = Field(description="Send it back for the next page; null on the last")
    hasMore: bool
    limit: int


class HistoryPage(BaseModel):
    items: list[HistoryItem]
    pagination: HistoryPagination
