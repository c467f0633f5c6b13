"""Request ids: accepted from the client when sane, else generated; echoed as X-Request-Id and
bound into every log line of the request (by ``kit.observe.ObserveMiddleware``)."""

from __future__ import annotations

import re
import uuid

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
