"""Response envelopes A and B (interface §4) and their OpenAPI models."""

from __future__ import annotations

from typing import Any, Generic, TypeVar

from pydantic import BaseModel, ConfigDict, Field, model_validator
from starlette.requests import HTTPConnection

from agora.kit.requestid import request_id_of
from agora.kit.textinput import find_unstorable
from agora.kit.timeutil import isoformat, utcnow

T = TypeVar("T")


class ApiModel(BaseModel):
    """Base for every API schema: camelCase on the wire, unknown input fields rejected."""

    model_config = ConfigDict(populate_by_name=True, extra="forbid")

    @model_validator(mode="before")
    @classmethod
    def _no_nul_characters(cls, data: Any) -> Any:
        found = find_unstorable(data)
        if found:
            raise ValueError(f"{found[0]}: {found[1]}")
        return data


def now_iso() -> str:
    return isoformat(utcnow()) or ""


class EnvelopeA(BaseModel, Generic[T]):
    """Key family: ``EnvelopeA[JobOut](data=job_row)`` (``data`` read through the schema)."""

    success: bool = True
    data: T
    timestamp: str = Field(default_factory=now_iso)


class MetaB(BaseModel):
    timestamp: str = Field(default_factory=now_iso)
    requestId: str
    pagination: dict[str, Any] | None = Field(default=None)


class EnvelopeB(BaseModel, Generic[T]):
    """Bearer family: ``EnvelopeB[ProjectOut](data=row, meta=meta_b(request))``."""

    data: T
    meta: MetaB


def meta_b(conn: HTTPConnection, pagination: dict[str, Any] | None = None) -> MetaB:
    """Envelope B's ``meta`` for this request (``pagination`` for paged lists)."""
    return MetaB(requestId=request_id_of(conn), pagination=pagination)


def written_a(data: Any, timestamp: str | None, **beside: Any) -> dict[str, Any]:
    """Envelope A around an item writer's JSON (kit/wire.py), its keys in ``EnvelopeA``'s order
    (``beside``: ``pagination`` of a paged list; no ``timestamp`` where the page has none)."""
    content = {"success": True, "data": data, **beside}
    if timestamp is not None:
        content["timestamp"] = timestamp
    return content


def written_b(data: Any, meta: MetaB) -> dict[str, Any]:
    """Envelope B around an item writer's JSON (kit/wire.py)."""
    return {"data": data, "meta": meta.model_dump(mode="json")}
