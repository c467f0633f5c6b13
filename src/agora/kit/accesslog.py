"""One log line per request, with the query string redacted (``api_key`` may ride in it);
written by ``kit.observe.ObserveMiddleware`` when the request ends."""

from __future__ import annotations

import structlog
from starlette.types import Scope

from agora.kit.logging import redact_text

log = structlog.get_logger("agora.access")


def log_request(scope: Scope, status: int, seconds: float) -> None:
    query = scope.get("query_string", b"").decode("latin-1")
    log.info(
        "request",
        method=scope["method"],
        path=scope["path"],
        query=redact_text(query) if query else None,
        status=status,
        duration_ms=round(seconds * 1000, 2),
    )
