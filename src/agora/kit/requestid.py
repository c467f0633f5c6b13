"""Request ids: accepted from the client when sane, else generated; echoed as X-Request-Id and
bound into every log line of the request (by ``kit.observe.ObserveMiddleware``)."""

from __future__ import annotations

import re
import uuid
from contextvars import ContextVar, Token
from dataclasses import dataclass

from starlette.requests import HTTPConnection
from starlette.types import Scope

HEADER = "x-request-id"
_HEADER_BYTES = HEADER.encode()
_SANE = re.compile(r"^[A-Za-z0-9._:-]{1,128}$")


def request_id_of(conn: HTTPConnection) -> str:
    rid = conn.scope.get("state", {}).get("request_id")
    return rid if isinstance(rid, str) else ""


def assign_request_id(scope: Scope) -> str:
    """The client's X-Request-Id when sane, else a new one; kept in the request's state."""
    incoming = ""
    for name, value in scope.get("headers", []):
        if name == _HEADER_BYTES:
            incoming = value.decode("latin-1")
            break
    rid = incoming if _SANE.match(incoming) else uuid.uuid4().hex
    scope.setdefault("state", {})["request_id"] = rid
    return rid


@dataclass
class RequestFacts:
    """What the audit log keeps of the request an action ran in (empty outside a request):
    its id, client address and, once authenticated, the caller (``auth``'s Principal)."""

    request_id: str = ""
    client_address: str = ""
    principal: object | None = None


_CURRENT: ContextVar[RequestFacts | None] = ContextVar("agora_request_facts", default=None)
_OUTSIDE = RequestFacts()


def bind_request(scope: Scope, rid: str) -> Token[RequestFacts | None]:
    """Make the request's id and client address current (``kit.observe``); reset it after."""
    client = scope.get("client")
    address = str(client[0]) if client else ""
    return _CURRENT.set(RequestFacts(rid, address[:64]))


def unbind_request(token: Token[RequestFacts | None]) -> None:
    _CURRENT.reset(token)


def current_request() -> RequestFacts:
    return _CURRENT.get() or _OUTSIDE


def note_principal(principal: object) -> None:
    """The request's caller, once authenticated (nothing outside a request)."""
    facts = _CURRENT.get()
    if facts is not None:
        facts.principal = principal
