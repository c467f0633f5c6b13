"""Render every error in its family's shape; FastAPI's 422 never escapes (it becomes 400).

Simple (key family):    {error, code, message, details?}
Detailed (bearer):      {error, message, details?, meta: {timestamp, requestId, path, method}}
Conflict (any, 409):    {error: "Conflict", message}
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import structlog
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from agora.kit.envelopes import now_iso
from agora.kit.errors import (
    ERROR_BY_STATUS,
    NO_ROUTE,
    AgoraError,
    BadRequest,
    Conflict,
    FieldError,
)
from agora.kit.families import Family, family_of
from agora.kit.requestid import request_id_of
from agora.kit.unavailable import UNAVAILABLE_CLASSES, database_error, database_unavailable

log = structlog.get_logger(__name__)

_SIMPLE_TEXT = {400: "Invalid request parameters", 500: "An unexpected error occurred"}


def error_body(request: Request, exc: AgoraError) -> dict[str, Any]:
    if isinstance(exc, Conflict):
        return {"error": "Conflict", "message": exc.message}
    details = exc.details_payload()
    if family_of(request) is Family.KEY:
        body: dict[str, Any] = {
            "error": _SIMPLE_TEXT.get(exc.status_code, exc.error_text),
            "code": str(exc.status_code),
            "message": exc.message,
        }
        if details:
            body["details"] = details
        return body
    body = {"error": exc.error_text, "message": exc.message}
    if details:
        body["details"] = details
    body["meta"] = {
        "timestamp": now_iso(),
        "requestId": request_id_of(request),
        "path": request.url.path,
        "method": request.method,
    }
    return body


# Paths whose errors are always JSON (the API, MCP, the demo agents, probes); errors on other
# paths (the web app's pages) are rendered by ``app.state.html_error_page`` when one is set.
JSON_PREFIXES = (
    "/v1/",
    "/api/",
    "/mcp",
    "/sse",
    "/messages/",
    "/demo-agents",
    "/healthz",
    "/readyz",
    "/metrics",
)
HtmlErrorPage = Callable[[Request, AgoraError], Response]


def _html_page(request: Request, exc: AgoraError) -> Response | None:
    render: HtmlErrorPage | None = getattr(request.app.state, "html_error_page", None)
    if render is None or request.url.path.startswith(JSON_PREFIXES):
        return None
    response = render(request, exc)
    response.headers.update(exc.headers)
    return response


def error_response(request: Request, exc: AgoraError) -> Response:
    page = _html_page(request, exc)
    if page is not None:
        return page
    return JSONResponse(error_body(request, exc), status_code=exc.status_code, headers=exc.headers)


def _field_name(loc: tuple[Any, ...] | list[Any]) -> str:
    parts = [str(p) for p in loc]
    if parts and parts[0] in ("body", "query", "path", "header"):
        where, rest = parts[0], parts[1:]
        if not rest:
            return "body" if where == "body" else where
        return ".".join(rest) if where == "body" else f"{where}.{'.'.join(rest)}"
    return ".".join(parts) or "request"


def validation_to_bad_request(exc: RequestValidationError) -> BadRequest:
    details: list[FieldError] = []
    for error in exc.errors():
        field = _field_name(error.get("loc", ()))
        if error.get("type") == "json_invalid":
            details.append(FieldError("body", "is not valid JSON"))
        elif error.get("type") == "extra_forbidden":
            details.append(FieldError(field, "is not a known field"))
        elif error.get("type") == "missing":
            details.append(FieldError(field, "is required"))
        else:
            details.append(FieldError(field, str(error.get("msg", "is invalid"))))
    summary = "; ".join(f"{d.field}: {d.reason}" for d in details[:5])
    return BadRequest(f"Invalid request parameters: {summary}", details=details)


def install(app: FastAPI) -> None:
    @app.exception_handler(AgoraError)
    async def _agora(request: Request, exc: AgoraError) -> Response:
        if exc.status_code >= 500:
            log.error("request_failed", status=exc.status_code, error=exc.message)
        return error_response(request, exc)

    @app.exception_handler(RequestValidationError)
    async def _validation(request: Request, exc: RequestValidationError) -> Response:
        return error_response(request, validation_to_bad_request(exc))

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> Response:
        cls = ERROR_BY_STATUS.get(exc.status_code)
        if cls is None:
            err: AgoraError = AgoraError()
        elif exc.status_code == 404 and exc.detail == "Not Found":
            err = cls(NO_ROUTE)
        else:
            err = cls(
                None if exc.detail in (None, "Not Found", "Method Not Allowed") else str(exc.detail)
            )
        headers = dict(exc.headers or {})
        page = _html_page(request, err)
        if page is not None:
            page.headers.update(headers)
            return page
        return JSONResponse(error_body(request, err), status_code=err.status_code, headers=headers)

    async def _dependency_down(request: Request, exc: Exception) -> Response:
        if database_unavailable(exc):
            log.warning("database_unavailable", path=request.url.path, error=type(exc).__name__)
            return error_response(request, database_error())
        log.exception("unhandled_error", path=request.url.path, method=request.method)
        return error_response(request, AgoraError())

    # Handled by class (not by the catch-all below, after which Starlette re-raises): the 503
    # is the request's answer.
    for cls in UNAVAILABLE_CLASSES:
        app.add_exception_handler(cls, _dependency_down)

    @app.exception_handler(Exception)
    async def _unexpected(request: Request, exc: Exception) -> Response:
        if database_unavailable(exc):
            log.warning("database_unavailable", path=request.url.path, error=type(exc).__name__)
            return error_response(request, database_error())
        log.exception("unhandled_error", path=request.url.path, method=request.method)
        return error_response(request, AgoraError())
