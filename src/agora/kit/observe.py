"""The request's one layer around the routes: request id, body limit, metrics, access log, and
the liveness probe.

These were four pure-ASGI middlewares, each with its own ``send`` wrapper and timer; a request
paid four layers (``/healthz`` little else: docs/performance.md). One layer does the same work in
the same order: assign the request id (``kit.requestid``) and bind it into every log line, wrap
``receive`` with the body limit (``kit.bodylimit``), echo ``X-Request-Id`` (and any headers the
request's checks left for the response, such as the rate limit's) on the response's start, then
count and time the request by route template (``kit.metrics``) and write its access-log line
(``kit.accesslog``), also when it fails (status 500 if none was sent).

Every answer that does not say otherwise gets ``Cache-Control: no-store`` (docs/security.md,
"Caching"): API answers carry new keys, sign-in answers, CSRF tokens, share links and webhook
secrets, and pages show them; no browser or shared cache keeps any of them. Static files
(``/static``, ``/docs/assets``) hold no secret and are left to the client's cache.

``GET /healthz`` (liveness: "the process answers") is answered here, with its request id, metric
and log line, and never reaches the framework's routing and dependencies: a probe polled every
few seconds by every load balancer costs what a bare route costs, and it keeps answering while
the application below is busy or broken.
"""

from __future__ import annotations

import time

import structlog
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from agora.kit.accesslog import log_request
from agora.kit.bodylimit import limit_body
from agora.kit.internals import get_route_path
from agora.kit.metrics import observe_request, route_label
from agora.kit.requestid import assign_request_id, bind_request, unbind_request

LIVENESS_PATH = "/healthz"
_LIVENESS_BODY = b'{"status":"ok"}'
_LIVENESS_HEADERS = [
    (b"content-type", b"application/json"),
    (b"content-length", str(len(_LIVENESS_BODY)).encode()),
]
_RESPONSE_HEADERS = "response_headers"  # in the request's state: headers its checks add
_NO_STORE = (b"cache-control", b"no-store")
STATIC_PREFIXES = ("/static/", "/docs/assets/")


def add_response_headers(scope: Scope, headers: dict[str, str]) -> None:
    """Headers for the response, whatever answers the request (a route or an error handler)."""
    if headers:
        scope.setdefault("state", {}).setdefault(_RESPONSE_HEADERS, {}).update(headers)


class ObserveMiddleware:
    def __init__(
        self, app: ASGIApp, max_body_bytes: int, body_limits: dict[str, int] | None = None
    ) -> None:
        self.app = app
        self.max_body_bytes = max_body_bytes
        # Paths whose routes take larger bodies, each with its own limit (uploads: they stream
        # to storage and bound each file themselves; kit.units.streams_body).
        self.body_limits = dict(body_limits or {})

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        rid = assign_request_id(scope)
        rid_header = (b"x-request-id", rid.encode("latin-1"))
        path = get_route_path(scope)
        liveness = scope["method"] in ("GET", "HEAD") and path == LIVENESS_PATH
        no_store = not path.startswith(STATIC_PREFIXES)
        status = 500

        async def observed_send(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                headers = list(message.get("headers", ()))
                headers.append(rid_header)
                extra = scope["state"].get(_RESPONSE_HEADERS)
                if extra:
                    headers.extend((k.lower().encode(), v.encode()) for k, v in extra.items())
                if no_store and not any(name.lower() == b"cache-control" for name, _ in headers):
                    headers.append(_NO_STORE)
                message["headers"] = headers
            await send(message)

        tokens = structlog.contextvars.bind_contextvars(request_id=rid)
        facts = bind_request(scope, rid)
        try:
            if liveness:
                await _answer_liveness(scope, observed_send)
            else:
                receive = limit_body(scope, receive, self.max_body_bytes, self.body_limits)
                await self.app(scope, receive, observed_send)
        finally:
            seconds = time.perf_counter() - started
            route = LIVENESS_PATH if liveness else route_label(scope)
            observe_request(scope["method"], route, status, seconds)
            log_request(scope, status, seconds)
            structlog.contextvars.reset_contextvars(**tokens)
            unbind_request(facts)


async def _answer_liveness(scope: Scope, send: Send) -> None:
    await send({"type": "http.response.start", "status": 200, "headers": list(_LIVENESS_HEADERS)})
    body = b"" if scope["method"] == "HEAD" else _LIVENESS_BODY
    await send({"type": "http.response.body", "body": body})
