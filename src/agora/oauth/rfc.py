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
    "JoseError",
    "OAuth2Error",
    "SlowDownError",
    "UnauthorizedClientError",
    "UnsupportedGrantTypeError",
    "compare_s256_code_challenge",
    "generate_token",
    "list_to_scope",
    "scope_to_list",
]
