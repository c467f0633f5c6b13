"""The local payment node over HTTP: the real node's routes under ``/api/v1``, its envelopes
(``{"status":"success","data":…}`` / ``{"status":"error","error":{"message":…}}``,
``packages/payment-core/src/endpoint-factory.ts``), its 401 for every auth failure
(``auth-middleware.ts``), and the testing routes (``/api/v1/testing/*``, only when the node is
built with ``testing=True``). Every answer carries ``X-Node-Time`` (the node's clock, Unix ms)
beside ``Date``."""

from __future__ import annotations

import hmac
import json
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from email.utils import format_datetime
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from agora.sandbox.payment_node.node import PaymentNode
from agora.sandbox.payment_node.state import (
    CONCURRENT,
    FORCED_404,
    MAX_BODY_BYTES,
    Escrow,
    NodeError,
)
from agora.sandbox.payment_node.views import payment_view, purchase_view

Handler = Callable[[dict[str, Any]], Any]
Endpoint = Callable[[Request], Awaitable[Response]]


def _respond(node: PaymentNode, status: int, payload: dict[str, Any]) -> Response:
    now = node.clock.now_ms()
    headers = {
        "x-node-time": str(now),
        "date": format_datetime(datetime.fromtimestamp(now / 1000, UTC), usegmt=True),
    }
    return JSONResponse(payload, status_code=status, headers=headers)


def _error(
    node: PaymentNode, status: int, message: str, extra: dict[str, Any] | None = None
) -> Response:
    return _respond(
        node, status, {"status": "error", "error": {"message": message}, **(extra or {})}
    )


def _unauthorised(node: PaymentNode, request: Request, right: str) -> Response | None:
    """Every auth failure is a 401 (``packages/payment-core/src/auth-middleware.ts``)."""
    token = request.headers.get("token", "")
    if not token:
        return _error(node, 401, "Unauthorized, no authentication token provided")
    tokens = node.config.tokens.items()
    rights = next((r for t, r in tokens if hmac.compare_digest(t, token)), None)
    if rights is None:
        return _error(node, 401, "Unauthorized, invalid authentication token provided")
    if right not in rights and "admin" not in rights:
        return _error(node, 401, f"Unauthorized, {right} access required")
    return None


def _forced(node: PaymentNode, path: str) -> Response | None:
    """The answer a test forced on the next request to ``path`` (a concurrent change's 409)."""
    forced = node.config.forced.get(path)
    if not forced:
        return None
    status = forced.pop(0)
    if status == 409 and path in CONCURRENT:
        return _error(node, 409, CONCURRENT[path])
    if status == 404 and path in FORCED_404:
        return _error(node, 404, FORCED_404[path])
    return _error(node, status, f"forced answer {status}")


def _body(raw: bytes) -> dict[str, Any] | tuple[int, str]:
    """The JSON object a request carries, or the refusal (status, message)."""
    if len(raw) > MAX_BODY_BYTES:
        return 413, "request entity too large"
    try:
        body = json.loads(raw) if raw else {}
    except ValueError:
        return 400, "the body must be JSON"
    if not isinstance(body, dict):
        return 400, "the body must be a JSON object"
    return body


def _endpoint(
    node: PaymentNode, path: str, handler: Handler, right: str, *, testing: bool = False
) -> Endpoint:
    async def run(request: Request) -> Response:
        if testing and not node.config.testing:
            return _error(node, 404, "Not found")
        if node.config.unavailable_for > 0 and not testing:
            node.config.unavailable_for -= 1
            return _error(node, 503, "the payment node is unavailable")
        refused = _unauthorised(node, request, right)
        if refused is None and not testing:
            refused = _forced(node, path)
        if refused is not None:
            return refused
        body = _body(await request.body())
        if isinstance(body, tuple):
            return _error(node, *body)
        try:
            data = handler(body)
        except NodeError as exc:
            return _error(node, exc.status, exc.message, exc.extra)
        return _respond(node, 200, {"status": "success", "data": data})

    return run


def _move_clock(node: PaymentNode, body: dict[str, Any]) -> dict[str, Any]:
    advance = body.get("advanceMs")
    if not isinstance(advance, int) or isinstance(advance, bool) or advance < 0:
        raise NodeError(400, "advanceMs must be a non-negative integer")
    node.clock.offset_ms += advance
    return {"now": str(node.clock.now_ms()), "offsetMs": node.clock.offset_ms}


def _chain(node: PaymentNode, body: dict[str, Any]) -> dict[str, Any]:
    config = node.config
    if "lockFunds" in body:
        config.lock_funds = bool(body["lockFunds"])
    if "unavailableFor" in body:
        config.unavailable_for = max(0, int(body["unavailableFor"]))
    if "chainDelayMs" in body:
        config.chain_delay_ms = max(0, int(body["chainDelayMs"]))
    forced = body.get("forced")
    if isinstance(forced, dict):
        for path, statuses in forced.items():
            config.forced[str(path)] = [int(s) for s in statuses][:100]
    return {
        "lockFunds": config.lock_funds,
        "unavailableFor": config.unavailable_for,
        "chainDelayMs": config.chain_delay_ms,
        "forced": config.forced,
    }


def build_node_app(node: PaymentNode) -> Starlette:
    """The node as an ASGI app (mount it anywhere; routes live under ``/api/v1``)."""

    def seller(method: Callable[[dict[str, Any]], Escrow]) -> Handler:
        return lambda body: payment_view(method(body))

    def buyer(method: Callable[[dict[str, Any]], Escrow]) -> Handler:
        return lambda body: purchase_view(method(body))

    routes: list[tuple[str, Handler, str]] = [
        ("/payment", seller(node.create_payment), "pay"),
        ("/payment/resolve-blockchain-identifier", node.resolve_payment, "read"),
        ("/payment/submit-result", seller(node.submit_result), "pay"),
        ("/payment/authorize-refund", seller(node.authorize_refund), "pay"),
        ("/purchase", buyer(node.create_purchase), "pay"),
        ("/purchase/resolve-blockchain-identifier", node.resolve_purchase, "read"),
        ("/purchase/request-refund", buyer(node.request_refund), "pay"),
        ("/purchase/cancel-refund-request", buyer(node.cancel_refund_request), "pay"),
        ("/purchase/error-state-recovery", node.recover, "pay"),
        ("/registry", node.register, "pay"),
    ]
    testing: list[tuple[str, Handler]] = [
        ("/testing/clock", lambda body: _move_clock(node, body)),
        ("/testing/chain", lambda body: _chain(node, body)),
    ]
    return Starlette(
        routes=[
            # express answers a path with or without its trailing slash (the SDK posts
            # /payment/)
            *(
                Route(f"/api/v1{p}{slash}", _endpoint(node, p, h, r), methods=["POST"])
                for p, h, r in routes
                for slash in ("", "/")
            ),
            *(
                Route(f"/api/v1{p}", _endpoint(node, p, h, "admin", testing=True), methods=["POST"])
                for p, h in testing
            ),
        ]
    )
