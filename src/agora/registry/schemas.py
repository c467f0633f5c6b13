"""Registry import responses (read from rows)."""

from __future__ import annotations

from typing import Any

from agora.kit.schemas import Schema, UtcDateTime


class QuarantinedOut(Schema):
    source_url: str
    entry_key: str
    reason: str
    entry: dict[str, Any]
    created_at: UtcDateTime
    updated_at: UtcDateTime
