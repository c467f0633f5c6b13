from __future__ import annotations

from uuid import UUID

from pydantic import Field

from agora.kit.envelopes import ApiModel
from agora.kit.schemas import Schema, UtcDateTime

MAX_REVIEW = 2000


class RatingCreate(ApiModel):
    jobId: str = Field(min_length=1, max_length=100, description="Your job, ended")
    stars: int = Field(ge=1, le=5, description="1 to 5")
    review: str | None = Field(
        default=None, max_length=MAX_REVIEW, description="Optional text (Markdown, sanitised)"
    )


class RatingUpdate(ApiModel):
    stars: int | None = Field(default=None, ge=1, le=5)
    review: str | None = Field(default=None, max_length=MAX_REVIEW)


class ReplyCreate(ApiModel):
    reply: str = Field(min_length=1, max_length=MAX_REVIEW)


class ReportCreate(ApiModel):
    reason: str = Field(min_length=1, max_length=1000)


class RatingOut(Schema):
    """Read from a ``Rating`` row. The hirer is not named; ``editableUntil`` is when the hirer
    can no longer change it."""

    id: UUID
    agent_id: UUID
    job_id: UUID
    stars: int
    review: str | None
    reply: str | None
    replied_at: UtcDateTime | None
    created_at: UtcDateTime
    updated_at: UtcDateTime
    editable_until: UtcDateTime


class ReportOut(Schema):
    """Read from ``ratings.service.ListedReport``."""

    id: UUID
    rating_id: UUID
    agent_id: UUID
    reason: str
    reporter_email: str
    stars: int
    review: str | None
    resolved_at: UtcDateTime | None
    created_at: UtcDateTime
