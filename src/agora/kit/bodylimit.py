"""Body limits and media type, enforced where the body is read (so the error knows the route's
family): a declared or streamed body over the limit → 413; a body that is not JSON → 415."""

from __future__ import annotations

from fastapi import Request
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from agora.kit.errors import UnsupportedMediaType

_BODY_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})


class BodyLimitMiddleware:
    """Wraps ``receive`` so reading more than ``max_bytes`` fails with 413.

    It raises Starlette's HTTPException because FastAPI re-raises that one from body parsing
    (anything else becomes a generic 400); the app's handler renders it in the family's shape.
    """

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] not in _BODY_METHODS:
            await self.app(scope, receive, send)
            return
        declared = None
        for name, value in scope.get("headers", []):
            if name == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    declared = None
        limit = self.max_bytes
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

        await self.app(scope, limited_receive, send)


_FORM_MEDIA = frozenset({"application/x-www-form-urlencoded", "multipart/form-data"})
_API_PREFIXES = ("/v1/", "/api/", "/mcp")


async def require_json_body(request: Request) -> None:
    """App-wide dependency: a request that carries a body must say it is JSON."""
    if request.method not in _BODY_METHODS:
        return
    length = request.headers.get("content-length")
    has_body = (length is not None and length != "0") or "transfer-encoding" in request.headers
    if not has_body:
        return
    media = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if media in _FORM_MEDIA and not request.url.path.startswith(_API_PREFIXES):
        return  # the web app's HTML forms (pages outside /v1 and /api)
    if media != "application/json" and not media.endswith("+json"):
        raise UnsupportedMediaType()
