"""Payment responses for operators (stuck payment states)."""

from __future__ import annotations

import uuid

from pydantic import Field

from agora.kit.schemas import Schema, UtcDateTime


class StuckPaymentOut(Schema):
    job_id: uuid.UUID
    job_status: str
    payment_state: str | None = Field(description="The node's on-chain state (null: not locked)")
    why: str = Field(description="refund_stuck | manual_action | no_progress")
    since: UtcDateTime = Field(description="When the job entered its current payment state")
    age_seconds: float
    last_error: str | None
    can_retry: bool = Field(description="A retry step exists (a refund the node refused)")


class RetriedPaymentOut(Schema):
    job_id: uuid.UUID
    step: str = Field(description="The dispatcher's step queued again (request-refund)")
