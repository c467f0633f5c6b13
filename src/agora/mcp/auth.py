"""Who is calling the tool server: an OAuth access token or an API key in ``Authorization:
Bearer`` (or a key in ``x-api-key``; ``?api_key=`` still works but is deprecated: URLs end up in
logs), checked on every HTTP request before the MCP SDK sees it. A refusal is a 401 whose
``WWW-Authenticate`` names the protected-resource metadata (RFC 9728 §5.1, the MCP authorization
spec), where clients discover the OAuth authorization server (oauth/, docs/mcp.md).

Streamable HTTP is stateless: every POST carries its key. SSE: the key presented when the stream
is opened is bound to that SSE session, so message POSTs may omit it; a message POST that presents
a *different* key is refused. Tools re-resolve the key per call (revocation applies at once).
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from agora.auth import service as auth
from agora.auth.principal import Permission
from agora.kit.db import Database
from agora.kit.errors import AgoraError, Unauthorized
from agora.kit.unavailable import database_error, database_unavailable
from agora.kit.units import Mode, Unit

TOKEN_STATE = "agora_mcp_token"
SSE_SESSION_PREFIX = b"session_id="
SDK_REFUSAL = "Request validation failed"  # mcp.server.sse.SseServerTransport.connect_sse


def presented_key(request: Request) -> str | None:
    query_key = request.query_params.get("api_key")
    if query_key:
        return query_key.strip() or None
    return auth.credentials_from_headers(
        request.headers.get("authorization"), request.headers.get("x-api-key")
    )


AUTH_ERROR_CODE = -32001  # JSON-RPC implementation-defined server error: not authenticated

# The least scopes the tool server needs: browse and read, run agents, keep projects, tasks and
# conversations. The 401 names them (``scope``, RFC 6750 §3) and the resource metadata of /mcp
# and /sse lists only them (RFC 9728 §2 lets a resource leave scopes unadvertised), so an MCP
# client that picks scopes by the MCP authorization spec's order (the 401's ``scope``, then
# ``scopes_supported``) asks for these, never ``profile:write``. The two profile tools need
# ``profile:write``: a client asks for it by name (docs/mcp.md).
LEAST_SCOPES = (Permission.READ, Permission.JOBS_WRITE, Permission.PROJECTS_WRITE)


def www_authenticate(resource_metadata: str | None, exc: AgoraError) -> str:
    """``Bearer resource_metadata="…", scope="…"`` (RFC 9728 §5.1, RFC 6750 §3), with
    ``error="invalid_token"`` when a credential was presented and refused (RFC 6750 §3.1)."""
    parts = []
    if resource_metadata:
        parts.append(f'resource_metadata="{resource_metadata}"')
    parts.append(f'scope="{" ".join(LEAST_SCOPES)}"')
    if exc.details:
        parts.append('error="invalid_token"')
        reason = exc.details[0].reason.replace('"', "'").replace("\\", "")
        parts.append(f'error_description="{reason}"')
    return "Bearer " + ", ".join(parts)


def _refusal(exc: AgoraError, resource_metadata: str | None = None) -> JSONResponse:
    """The HTTP status, and a JSON-RPC error body so MCP clients show the reason."""
    reasons = "; ".join(d.reason for d in exc.details)
    data: dict[str, Any] = {"error": exc.error_text, "message": exc.message}
    if exc.details:
        data["details"] = exc.details_payload()
    body = {
        "jsonrpc": "2.0",
        "id": None,
        "error": {
            "code": AUTH_ERROR_CODE,
            "message": f"{exc.message}: {reasons}" if reasons else exc.message,
            "data": data,
        },
    }
    headers = (
        {"WWW-Authenticate": www_authenticate(resource_metadata, exc)}
        if exc.status_code == 401
        else dict(exc.headers)
    )
    return JSONResponse(body, status_code=exc.status_code, headers=headers)


class McpAuthMiddleware:
    """Refuses unauthenticated requests (401, JSON) and hands the key to the tools."""

    def __init__(self, app: ASGIApp, db: Database, resource_metadata: str | None = None) -> None:
        self.app, self.db = app, db
        self.resource_metadata = resource_metadata  # this endpoint's RFC 9728 metadata URL
        self._sse_keys: dict[str, str] = {}  # SSE session id (hex) → the key that opened it

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request = Request(scope)
        key = presented_key(request)
        session_id = request.query_params.get("session_id")
        if session_id is not None:
            bound = self._sse_keys.get(session_id)
            if key is not None and bound is not None and key != bound:
                refused = Unauthorized("This SSE session was opened with another key")
                await _refusal(refused, self.resource_metadata)(scope, receive, send)
                return
            key = key or bound
        try:
            if key is None:
                raise Unauthorized(
                    "Authentication required: sign in by OAuth (Authorization: Bearer <access "
                    "token>) or pass an API key as Authorization: Bearer or x-api-key"
                )
            unit = Unit(self.db, Mode.READ)  # the request lifecycle's, as a tool call's
            try:
                await auth.authenticate(
                    await unit.session(),
                    key,
                    workspace_header=request.headers.get("x-workspace-id"),
                    organization_slug=request.headers.get("x-organization-slug"),
                )
            except BaseException as exc:
                await unit.finish(exc)
                raise
            await unit.finish(None)
        except AgoraError as exc:
            await _refusal(exc, self.resource_metadata)(scope, receive, send)
            return
        except Exception as exc:
            if not database_unavailable(exc):
                raise
            await _refusal(database_error())(scope, receive, send)
            return
        scope.setdefault("state", {})[TOKEN_STATE] = key
        if scope["method"] == "GET" and session_id is None:
            await self._open_sse(scope, receive, send, key)
        else:
            await self.app(scope, receive, send)

    async def _open_sse(self, scope: Scope, receive: Receive, send: Send, key: str) -> None:
        opened: list[str] = []
        answered: list[bool] = []

        async def remember_session(message: Message) -> None:
            if message["type"] == "http.response.start":
                answered.append(True)
            body = message.get("body", b"") if message["type"] == "http.response.body" else b""
            if not opened and SSE_SESSION_PREFIX in body:
                tail = body.split(SSE_SESSION_PREFIX, 1)[1]
                session_id = tail.split(b"\r", 1)[0].split(b"\n", 1)[0].decode()
                opened.append(session_id)
                self._sse_keys[session_id] = key
            await send(message)

        try:
            await self.app(scope, receive, remember_session)
        except ValueError as exc:
            # The SDK answers a refused stream (its Host/Origin check) itself and then raises:
            # the client has its answer, so this is no server error to log as one.
            if not answered or str(exc) != SDK_REFUSAL:
                raise
        finally:
            for session_id in opened:
                self._sse_keys.pop(session_id, None)
