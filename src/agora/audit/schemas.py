"""Audit log responses (read from rows)."""

from __future__ import annotations

import uuid
from typing import Any

from agora.kit.schemas import Schema, UtcDateTime


class AuditEventOut(Schema):
    id: uuid.UUID
    created_at: UtcDateTime
    action: str
    actor_kind: str
    actor_id: uuid.UUID | None
    actor_key_id: uuid.UUID | None
    target_kind: str
    target_id: str
    workspace_id: uuid.UUID | None
    organization_id: uuid.UUID | None
    request_id: str
    client_address: str
    details: dict[str, Any]
