"""Body limits and media type, enforced where the body is read (so the error knows the route's
family): a declared or streamed body over the limit → 413; a body that is not JSON → 415."""

from __future__ import annotations

from fastapi import Request
from starlette.exceptions import HTTPException
from starlette.types import Message, Receive, Scope

from agora.kit.errors import UnsupportedMediaType

_BODY_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})


def limit_body(
    scope: Scope, receive: Receive, max_bytes: int, limits: dict[str, int] | None = None
) -> Receive:
    """``receive``, wrapped so reading more than ``max_bytes`` fails with 413 (the request's
    layer, ``kit.observe.ObserveMiddleware``, applies it to methods that carry a body).

    It raises Starlette's HTTPException because FastAPI re-raises that one from body parsing
    (anything else becomes a generic 400); the app's handler renders it in the family's shape.
    """
    if scope["method"] not in _BODY_METHODS:
        return receive
    if limits:  # a route with its own limit (an upload), by path
        max_bytes = limits.get(scope.get("path", ""), max_bytes)
    declared = None
    for name, value in scope.get("headers", []):
        if name == b"content-length":
            try:
                declared = int(value)
            except ValueError:
                declared = None
    limit = max_bytes
    seen = 0

    async def limited_receive() -> Message:
        nonlocal seen
        if declared is not None and declared > limit:
            raise HTTPException(413, f"Request body exceeds the limit of {limit} bytes")
        message = await receive()
        if message["type"] == "http.request":
            seen += len(message.get("body", b""))
            if seen > limit:
                raise HTTPException(413, f"Request body exceeds the limit of {limit} bytes")
        return message

    return limited_receive


_FORM_MEDIA = frozenset({"application/x-www-form-urlencoded", "multipart/form-data"})
_API_PREFIXES = ("/v1/", "/api/", "/mcp")


def require_json_body(request: Request) -> None:
    """A request that carries a body must say it is JSON (``kit.guards.request_checks``)."""
    if request.method not in _BODY_METHODS:
        return
    length = request.headers.get("content-length")
    has_body = (length is not None and length != "0") or "transfer-encoding" in request.headers
    if not has_body:
        return
    media = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if media in _FORM_MEDIA and not request.scope["path"].startswith(_API_PREFIXES):
        return  # the web app's HTML forms (pages outside /v1 and /api)
    if media == "multipart/form-data" and getattr(
        request.scope.get("endpoint"), "agora_streams_body", False
    ):
        return  # an upload route (kit.units.streams_body) parses its own multipart stream
    if media != "application/json" and not media.endswith("+json"):
        raise UnsupportedMediaType()
