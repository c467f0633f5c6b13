"""One log line per request, with the query string redacted (``api_key`` may ride in it), and
the timing middleware that both the access log and the request metrics build on."""

from __future__ import annotations

import time

import structlog
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from agora.kit.logging import redact_text

log = structlog.get_logger("agora.access")


class TimedMiddleware:
    """Times each HTTP request and hands its final status to ``observe`` (500 if none was sent)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    def observe(self, scope: Scope, status: int, seconds: float) -> None:
        raise NotImplementedError

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status = 500

        async def capture(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, capture)
        finally:
            self.observe(scope, status, time.perf_counter() - started)


class AccessLogMiddleware(TimedMiddleware):
    def observe(self, scope: Scope, status: int, seconds: float) -> None:
        query = scope.get("query_string", b"").decode("latin-1")
        log.info(
            "request",
            method=scope["method"],
            path=scope["path"],
            query=redact_text(query) if query else None,
            status=status,
            duration_ms=round(seconds * 1000, 2),
        )
