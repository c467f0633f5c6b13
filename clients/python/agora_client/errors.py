"""Typed errors carrying the API's error fields.

Agora answers errors in one of its shapes (docs/api.md, "Families, envelopes, errors"):

- Simple (the key family: jobs, users, credits): ``{error, code, message, details?}``
- Detailed (the bearer family: projects, tasks, agents…):
  ``{error, message, details?, meta: {timestamp, requestId, path, method}}``
- Conflict: ``{error: "Conflict", message}``; OAuth (RFC 6749): ``{error, error_description}``

Every one becomes an :class:`AgoraError` subclass chosen by the HTTP status, with the fields
that shape has (``None`` for those it lacks).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from email.utils import parsedate_to_datetime
from typing import Any

import httpx


@dataclass(frozen=True)
class FieldError:
    """One entry of ``details``: which field was wrong and why (``inputData.topic``)."""

    field: str
    reason: str


class AgoraError(Exception):
    """An error answer from Agora (or a client-side failure with no answer: ``status`` 0)."""

    def __init__(
        self,
        status: int,
        error: str,
        message: str,
        *,
        code: str | None = None,
        details: tuple[FieldError, ...] = (),
        request_id: str | None = None,
        path: str | None = None,
        method: str | None = None,
        retry_after: float | None = None,
        body: Any = None,
    ) -> None:
        self.status = status
        self.error = error
        self.message = message
        self.code = code
        self.details = details
        self.request_id = request_id
        self.path = path
        self.method = method
        self.retry_after = retry_after
        self.body = body
        fields = "; ".join(f"{d.field}: {d.reason}" for d in details)
        super().__init__(f"{status} {error}: {message}" + (f" ({fields})" if fields else ""))


class BadRequest(AgoraError):
    """400: bad input; ``details`` names the fields."""


class Unauthorized(AgoraError):
    """401: a missing, wrong, revoked or expired key or token."""


class PaymentRequired(AgoraError):
    """402: the workspace's credits (or the spending cap) are short."""


class Forbidden(AgoraError):
    """403: signed in but not allowed."""


class NotFound(AgoraError):
    """404: unknown, or not visible to this caller (another workspace's ids)."""


class Conflict(AgoraError):
    """409: the state does not allow it (or an Idempotency-Key reused for another body)."""


class PayloadTooLarge(AgoraError):
    """413: the body is over the server's limit."""


class RateLimited(AgoraError):
    """429 after the client's retries: ``retry_after`` says when to come back."""


class ServerError(AgoraError):
    """5xx."""


class Unavailable(ServerError):
    """503 after the client's retries (the server is busy or shutting down)."""


class WaitTimeout(AgoraError):
    """``jobs.run(wait=True)`` / ``jobs.wait()`` gave up before the job finished."""


class DeviceFlowError(AgoraError):
    """The device sign-in ended without tokens (denied, expired)."""


_BY_STATUS: dict[int, type[AgoraError]] = {
    400: BadRequest,
    401: Unauthorized,
    402: PaymentRequired,
    403: Forbidden,
    404: NotFound,
    409: Conflict,
    413: PayloadTooLarge,
    429: RateLimited,
    503: Unavailable,
}


def retry_after_seconds(value: str | None) -> float | None:
    """``Retry-After`` as seconds: delta-seconds or an HTTP date; None when absent or unreadable."""
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    from datetime import UTC, datetime

    return max(0.0, (when - datetime.now(UTC)).total_seconds())


def error_from(status: int, headers: httpx.Headers, content: bytes) -> AgoraError:
    """The typed error for an answer with an error status."""
    try:
        body: Any = json.loads(content) if content else None
    except ValueError:
        body = content.decode("utf-8", "replace")[:2000]
    fields: dict[str, Any] = body if isinstance(body, dict) else {}
    meta = fields.get("meta") if isinstance(fields.get("meta"), dict) else {}
    details = tuple(
        FieldError(str(d.get("field", "")), str(d.get("reason", "")))
        for d in fields.get("details") or ()
        if isinstance(d, dict)
    )
    error = str(fields.get("error") or httpx.codes.get_reason_phrase(status) or "Error")
    message = str(fields.get("message") or fields.get("error_description") or error)
    cls = _BY_STATUS.get(status) or (ServerError if status >= 500 else AgoraError)
    return cls(
        status,
        error,
        message,
        code=str(fields["code"]) if "code" in fields else None,
        details=details,
        request_id=(meta or {}).get("requestId") or headers.get("x-request-id"),
        path=(meta or {}).get("path"),
        method=(meta or {}).get("method"),
        retry_after=retry_after_seconds(headers.get("retry-after")),
        body=body,
    )
