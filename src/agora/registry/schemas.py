"""Registry import responses (read from rows) and the operators' bodies."""

from __future__ import annotations

import uuid
from typing import Any

from pydantic import Field

from agora.kit.envelopes import ApiModel
from agora.kit.schemas import Schema, UtcDateTime


class QuarantinedOut(Schema):
    id: uuid.UUID
    source_url: str
    entry_key: str
    reason: str
    entry: dict[str, Any]
    created_at: UtcDateTime
    updated_at: UtcDateTime


class DismissIn(ApiModel):
    reason: str = Field(min_length=1, max_length=2000, description="Why (kept in the audit log)")


class RetriedOut(Schema):
    imported: bool = Field(description="The entry passed the current rules and was imported")
    entry_key: str
    reason: str | None = Field(description="Why it is still quarantined (null: imported)")
    agent_id: uuid.UUID | None = Field(description="The imported agent (PENDING review)")


class DismissedOut(Schema):
    id: uuid.UUID
    entry_key: str
    dismissed_at: UtcDateTime
    dismissed_reason: str
