"""Rules every update body shares: trimmed, bounded text; PATCH semantics (only the fields sent,
at least one, never null)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from agora.kit.errors import BadRequest


def trimmed(field: str, value: str, max_length: int) -> str:
    """``value`` without surrounding spaces; 1 to ``max_length`` characters, else a 400."""
    value = value.strip()
    if not 1 <= len(value) <= max_length:
        raise BadRequest.field(field, f"must be 1 to {max_length} characters after trimming")
    return value


def patch_fields(body: BaseModel, *, require_one: bool = True) -> dict[str, Any]:
    """The fields the client sent; ``null`` for any of them is a 400 naming it."""
    given = body.model_dump(exclude_unset=True)
    if require_one and not given:
        raise BadRequest(f"Give at least one of {', '.join(type(body).model_fields)}")
    for field, value in given.items():
        if value is None:
            raise BadRequest.field(field, "must not be null")
    return given
