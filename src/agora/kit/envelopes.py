"""Response envelopes A and B (interface §4) and their OpenAPI models."""

from __future__ import annotations

from typing import Any, Generic, TypeVar

from pydantic import BaseModel, ConfigDict, Field, model_validator
from starlette.requests import HTTPConnection

from agora.kit.requestid import request_id_of
from agora.kit.textinput import NUL_REASON, find_nul
from agora.kit.timeutil import isoformat, utcnow

T = TypeVar("T")


class ApiModel(BaseModel):
    """Base for every API schema: camelCase on the wire, unknown input fields rejected."""

    model_config = ConfigDict(populate_by_name=True, extra="forbid")

    @model_validator(mode="before")
    @classmethod
    def _no_nul_characters(cls, data: Any) -> Any:
        where = find_nul(data)
        if where:
            raise ValueError(f"{where}: {NUL_REASON}")
        return data


class EnvelopeA(BaseModel, Generic[T]):
    success: bool = True
    data: T
    timestamp: str


class CursorPagination(BaseModel):
    cursor: str | None
    limit: int
    total: int
    nextCursor: str | None


class PagePagination(BaseModel):
    page: int
    limit: int
    total: int
    hasMore: bool


class MetaB(BaseModel):
    timestamp: str
    requestId: str
    pagination: dict[str, Any] | None = Field(default=None)


class EnvelopeB(BaseModel, Generic[T]):
    data: T
    meta: MetaB


def now_iso() -> str:
    return isoformat(utcnow()) or ""


def envelope_a(data: Any) -> dict[str, Any]:
    return {"success": True, "data": data, "timestamp": now_iso()}


def envelope_b(
    conn: HTTPConnection, data: Any, pagination: dict[str, Any] | None = None
) -> dict[str, Any]:
    meta: dict[str, Any] = {"timestamp": now_iso(), "requestId": request_id_of(conn)}
    if pagination is not None:
        meta["pagination"] = pagination
    return {"data": data, "meta": meta}
