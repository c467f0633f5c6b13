"""The request's one layer around the routes: request id, body limit, metrics, access log.

These were four pure-ASGI middlewares, each with its own ``send`` wrapper and timer; a request
paid four layers (``/healthz`` little else: docs/performance.md). One layer does the same work in
the same order: assign the request id (``kit.requestid``) and bind it into every log line, wrap
``receive`` with the body limit (``kit.bodylimit``), echo ``X-Request-Id`` and note the status on
the response's start, then count and time the request by route template (``kit.metrics``) and
write its access-log line (``kit.accesslog``), also when it fails (status 500 if none was sent).
"""

from __future__ import annotations

import time

import structlog
from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from agora.kit.accesslog import log_request
from agora.kit.bodylimit import limit_body
from agora.kit.metrics import observe_request
from agora.kit.requestid import assign_request_id


class ObserveMiddleware:
    def __init__(self, app: ASGIApp, max_body_bytes: int) -> None:
        self.app = app
        self.max_body_bytes = max_body_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        rid = assign_request_id(scope)
        status = 500

        async def observed_send(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                MutableHeaders(scope=message)["X-Request-Id"] = rid
            await send(message)

        tokens = structlog.contextvars.bind_contextvars(request_id=rid)
        try:
            await self.app(scope, limit_body(scope, receive, self.max_body_bytes), observed_send)
        finally:
            seconds = time.perf_counter() - started
            observe_request(scope, status, seconds)
            log_request(scope, status, seconds)
            structlog.contextvars.reset_contextvars(**tokens)
