"""One log line per request, with the query string redacted (``api_key`` may ride in it);
written by ``kit.observe.ObserveMiddleware`` when the request ends."""

from __future__ import annotations

import logging
from typing import Any

import structlog
from starlette.types import Scope

from agora.kit import logging as kit_logging
from agora.kit.logging import redact_text

log = structlog.get_logger("agora.access")
# structlog's lazy proxy builds a logger for every call (the configuration may have changed):
# the access log binds one and keeps it until configure_logging runs again.
_bound: tuple[int, Any] = (-1, None)


def _logger() -> Any:
    global _bound
    if _bound[0] != kit_logging.generation:
        _bound = (kit_logging.generation, log.bind())
    return _bound[1]


def log_request(scope: Scope, status: int, seconds: float) -> None:
    query = scope.get("query_string", b"").decode("latin-1")
    fields = {
        "method": scope["method"],
        "path": scope["path"],
        "query": redact_text(query) if query else None,
        "status": status,
        "duration_ms": round(seconds * 1000, 2),
    }
    # The JSON line is written directly (a third of the cost of the processor chain, which
    # ran once per request: docs/performance.md); the console format goes through structlog.
    if not kit_logging.write_json_event(logging.INFO, "request", fields):
        _logger().info("request", **fields)
