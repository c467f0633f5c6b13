"""Text that cannot be stored: PostgreSQL's text and JSONB reject U+0000 (SQLite would keep it),
so a NUL anywhere in a query value or a body string is a 400 naming where it is, on both
databases alike, before any SQL runs."""

from __future__ import annotations

from typing import Any

from fastapi import Request

from agora.kit.errors import BadRequest

NUL = "\x00"
NUL_REASON = "must not contain the NUL character (U+0000)"


def find_nul(value: Any, path: str = "") -> str | None:
    """The dotted path of the first string (or key) in ``value`` holding a NUL, else None."""
    if isinstance(value, str):
        return path or "value" if NUL in value else None
    if isinstance(value, dict):
        for key, item in value.items():
            here = f"{path}.{key}" if path else str(key)
            if isinstance(key, str) and NUL in key:
                return here
            found = find_nul(item, here)
            if found:
                return found
    elif isinstance(value, (list, tuple)):
        for index, item in enumerate(value):
            found = find_nul(item, f"{path}[{index}]")
            if found:
                return found
    return None


SURROGATE_REASON = "must not contain a lone surrogate (U+D800 to U+DFFF): not valid Unicode text"


def _text_problem(text: str) -> str | None:
    if NUL in text:
        return NUL_REASON
    if any("\ud800" <= c <= "\udfff" for c in text):
        return SURROGATE_REASON
    return None


def find_unstorable(value: Any, path: str = "") -> tuple[str, str] | None:
    """``(dotted path, reason)`` of the first string (or key) in ``value`` that no database can
    store as text (a NUL, or a lone surrogate: not encodable as UTF-8), else None."""
    if isinstance(value, str):
        problem = _text_problem(value)
        return (path or "value", problem) if problem else None
    if isinstance(value, dict):
        for key, item in value.items():
            here = f"{path}.{key}" if path else str(key)
            if isinstance(key, str):
                problem = _text_problem(key)
                if problem:
                    return here, problem
            found = find_unstorable(item, here)
            if found:
                return found
    elif isinstance(value, (list, tuple)):
        for index, item in enumerate(value):
            found = find_unstorable(item, f"{path}[{index}]")
            if found:
                return found
    return None


def reject_nul_in_query(request: Request) -> None:
    """No query parameter may carry a NUL (``kit.guards.request_checks``). A query string
    without a raw or percent-encoded NUL is not parsed."""
    raw: bytes = request.scope.get("query_string", b"")
    if b"%00" not in raw and b"\x00" not in raw:
        return
    for name, value in request.query_params.multi_items():
        if NUL in name or NUL in value:
            raise BadRequest.field(f"query.{name}", NUL_REASON)
