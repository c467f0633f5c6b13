"""The Authlib pieces the authorization server uses, imported in one place (Authlib ships no type
information: its names are ``Any`` to mypy here and only here)."""

from __future__ import annotations

from authlib.common.security import generate_token
from authlib.oauth2.rfc6749 import (
    AccessDeniedError,
    InvalidClientError,
    InvalidGrantError,
    InvalidRequestError,
    InvalidScopeError,
    OAuth2Error,
    UnauthorizedClientError,
    UnsupportedGrantTypeError,
    list_to_scope,
    scope_to_list,
)
from authlib.oauth2.rfc7591 import ClientMetadataClaims
from authlib.oauth2.rfc7591.errors import (
    InvalidClientMetadataError,
    InvalidRedirectURIError,
)
from authlib.oauth2.rfc7636.challenge import (
    CODE_CHALLENGE_PATTERN,
    CODE_VERIFIER_PATTERN,
    compare_s256_code_challenge,
)
from authlib.oauth2.rfc8414 import AuthorizationServerMetadata
from authlib.oauth2.rfc8628 import (
    DEVICE_CODE_GRANT_TYPE,
    AuthorizationPendingError,
    ExpiredTokenError,
    SlowDownError,
)
from joserfc.errors import JoseError


def echo(value: str, limit: int) -> str:
    """``value`` fit to quote in an ``error_description``: RFC 6749 §5.2 allows printable ASCII
    without '"' and '\\' there, and Authlib raises (a 500) on anything else."""
    return "".join(c for c in value[:limit] if " " <= c <= "~" and c not in '"\\')


class InvalidTargetError(OAuth2Error):  # type: ignore[misc]
    """RFC 8707 §2: the requested resource is invalid, unknown or malformed (Authlib has no
    class for it)."""

    error = "invalid_target"


class TemporarilyUnavailableError(OAuth2Error):  # type: ignore[misc]
    """RFC 6749 §4.1.2.1's ``temporarily_unavailable``: the registration budget of an address
    is spent (answered 429 with Retry-After; RFC 7591 names no error for it)."""

    error = "temporarily_unavailable"


__all__ = [
    "CODE_CHALLENGE_PATTERN",
    "CODE_VERIFIER_PATTERN",
    "DEVICE_CODE_GRANT_TYPE",
    "AccessDeniedError",
    "AuthorizationPendingError",
    "AuthorizationServerMetadata",
    "ClientMetadataClaims",
    "ExpiredTokenError",
    "InvalidClientError",
    "InvalidClientMetadataError",
    "InvalidGrantError",
    "InvalidRedirectURIError",
    "InvalidRequestError",
    "InvalidScopeError",
    "InvalidTargetError",
    "JoseError",
    "OAuth2Error",
    "SlowDownError",
    "TemporarilyUnavailableError",
    "UnauthorizedClientError",
    "UnsupportedGrantTypeError",
    "compare_s256_code_challenge",
    "echo",
    "generate_token",
    "list_to_scope",
    "scope_to_list",
]
