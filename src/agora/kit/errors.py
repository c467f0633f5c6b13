"""The service's exception tree. Each class carries its status; handlers render it in the shape
of the endpoint's family (see ``agora.kit.families``).

    AgoraError
    ├── BadRequest (400)          invalid parameters; ``details`` names the fields
    ├── Unauthorized (401)
    ├── PaymentRequired (402)     credits are short
    ├── Forbidden (403)
    ├── NotFound (404)            unknown, or another tenant's (never revealed)
    ├── MethodNotAllowed (405)
    ├── RequestTimeout (408)      the body did not arrive in time
    ├── Conflict (409)            rendered in the Conflict shape {error, message}
    ├── PayloadTooLarge (413)
    ├── UnsupportedMediaType (415)
    ├── RateLimited (429)         carries Retry-After
    └── ServiceUnavailable (503)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar


@dataclass(frozen=True)
class FieldError:
    field: str
    reason: str

    def as_dict(self) -> dict[str, str]:
        return {"field": self.field, "reason": self.reason}


class AgoraError(Exception):
    status_code: ClassVar[int] = 500
    error: ClassVar[str] = "Internal Server Error"

    def __init__(
        self,
        message: str | None = None,
        *,
        details: list[FieldError] | None = None,
        headers: dict[str, str] | None = None,
        error: str | None = None,
    ) -> None:
        self.message = message or self.default_message()
        self.details = details or []
        self.headers = headers or {}
        self.error_text = error or self.error
        super().__init__(self.message)

    def default_message(self) -> str:
        return "An unexpected error occurred"

    def details_payload(self) -> list[dict[str, Any]]:
        return [d.as_dict() for d in self.details]


class BadRequest(AgoraError):
    status_code = 400
    error = "Invalid request parameters"

    def default_message(self) -> str:
        return "Invalid request parameters"

    @classmethod
    def field(cls, field: str, reason: str) -> BadRequest:
        return cls(f"{field}: {reason}", details=[FieldError(field, reason)])


class Unauthorized(AgoraError):
    status_code = 401
    error = "Unauthorized"

    def default_message(self) -> str:
        return "Authentication required"


class PaymentRequired(AgoraError):
    status_code = 402
    error = "Payment Required"

    def default_message(self) -> str:
        return "Not enough credits"


class Forbidden(AgoraError):
    status_code = 403
    error = "Forbidden"

    def default_message(self) -> str:
        return "You are not allowed to do this"


# What a path no route matches answers (kit/errorhandlers.py); the admin API answers the same
# to a caller who is not an admin, so it does not show (auth/dependencies.py ``require``).
NO_ROUTE = "No route matches this path"


class NotFound(AgoraError):
    status_code = 404
    error = "Not Found"

    def default_message(self) -> str:
        return "Resource not found"


class MethodNotAllowed(AgoraError):
    status_code = 405
    error = "Method Not Allowed"

    def default_message(self) -> str:
        return "Method not allowed on this path"


class RequestTimeout(AgoraError):
    status_code = 408
    error = "Request Timeout"

    def default_message(self) -> str:
        return "The request body did not arrive in time"


class Conflict(AgoraError):
    status_code = 409
    error = "Conflict"

    def default_message(self) -> str:
        return "Conflict with the current state of the resource"


class PayloadTooLarge(AgoraError):
    status_code = 413
    error = "Payload Too Large"

    def default_message(self) -> str:
        return "Request body is too large"


class UnsupportedMediaType(AgoraError):
    status_code = 415
    error = "Unsupported Media Type"

    def default_message(self) -> str:
        return "Request body must be JSON (Content-Type: application/json)"


class RateLimited(AgoraError):
    status_code = 429
    error = "Too Many Requests"

    def default_message(self) -> str:
        return "Rate limit exceeded; retry after the time given in Retry-After"


class ServiceUnavailable(AgoraError):
    status_code = 503
    error = "Service Unavailable"

    def default_message(self) -> str:
        return "The service is temporarily unavailable"


ERROR_BY_STATUS: dict[int, type[AgoraError]] = {
    cls.status_code: cls
    for cls in (
        BadRequest,
        Unauthorized,
        PaymentRequired,
        Forbidden,
        NotFound,
        MethodNotAllowed,
        RequestTimeout,
        Conflict,
        PayloadTooLarge,
        UnsupportedMediaType,
        RateLimited,
        ServiceUnavailable,
    )
}
