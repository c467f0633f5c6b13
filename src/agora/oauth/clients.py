"""OAuth clients: open registration with limits (RFC 7591) and the client authentication of the
token, revocation and device endpoints (RFC 6749 §2.3)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from agora.audit import service as audit
from agora.kit.security import hash_key, hashes_match
from agora.models import OAuthClient
from agora.oauth import redirects
from agora.oauth import repository as repo
from agora.oauth import tokens as t
from agora.oauth.rfc import (
    ClientMetadataClaims,
    InvalidClientError,
    InvalidClientMetadataError,
    InvalidRedirectURIError,
    JoseError,
    echo,
    list_to_scope,
)
from agora.oauth.service import AUTH_METHODS, GRANT_TYPES, granted_scopes

# Registration limits (RFC 7591 leaves them to the server).
MAX_CLIENTS = 100_000
MAX_REDIRECT_URIS = 5
MAX_NAME_CHARS = 200


# ---- registration (RFC 7591) -----------------------------------------------------------------


@dataclass(frozen=True)
class ClientMetadata:
    """What a registration asks for, checked."""

    redirect_uris: list[str]
    grant_types: list[str]
    method: str
    name: str
    client_uri: str
    scopes: list[str] | None


def _redirect_uris(metadata: dict[str, Any]) -> list[str]:
    uris = metadata.get("redirect_uris") or []
    if not isinstance(uris, list) or not all(isinstance(u, str) for u in uris):
        raise InvalidRedirectURIError("redirect_uris must be a list of URIs")
    if len(uris) > MAX_REDIRECT_URIS:
        raise InvalidRedirectURIError(f"at most {MAX_REDIRECT_URIS} redirect URIs")
    bad = [u for u in uris if not redirects.allowed(u)]
    if bad:
        raise InvalidRedirectURIError(
            f"'{echo(bad[0], 100)}': an absolute https URI, http on a loopback address, or an "
            "app's own scheme; host[:port] without userinfo, no fragment, only URI characters "
            "(docs/security.md)"
        )
    return list(uris)


def checked_metadata(body: Any) -> ClientMetadata:
    """The client metadata (Authlib's claims, then our limits), or the RFC 7591 §3.2.2 error."""
    if not isinstance(body, dict):
        raise InvalidClientMetadataError("the body must be a JSON object")
    claims = ClientMetadataClaims(body, {})
    try:
        claims.validate()
    except JoseError as exc:
        reason = str(exc.description or exc)
        if "redirect_uris" in reason:
            raise InvalidRedirectURIError(reason) from None
        raise InvalidClientMetadataError(reason) from None
    metadata = dict(claims)
    uris = _redirect_uris(metadata)
    grant_types = metadata.get("grant_types") or ["authorization_code", "refresh_token"]
    if not isinstance(grant_types, list) or not set(grant_types) <= set(GRANT_TYPES):
        raise InvalidClientMetadataError(f"grant_types: only {', '.join(GRANT_TYPES)}")
    if "authorization_code" in grant_types and not uris:
        raise InvalidRedirectURIError("the authorization_code grant needs redirect_uris")
    if not set(metadata.get("response_types") or ["code"]) <= {"code"}:
        raise InvalidClientMetadataError("response_types: only code")
    method = metadata.get("token_endpoint_auth_method") or "client_secret_basic"
    if method not in AUTH_METHODS:
        raise InvalidClientMetadataError(f"token_endpoint_auth_method: one of {AUTH_METHODS}")
    name = metadata.get("client_name") or ""
    client_uri = metadata.get("client_uri") or ""
    if not isinstance(name, str) or len(name) > MAX_NAME_CHARS:
        raise InvalidClientMetadataError(f"client_name: text of at most {MAX_NAME_CHARS}")
    if not isinstance(client_uri, str) or len(client_uri) > 500:
        raise InvalidClientMetadataError("client_uri: a URL of at most 500 characters")
    scope = metadata.get("scope")
    scopes = granted_scopes(str(scope)) if scope else None
    return ClientMetadata(uris, list(grant_types), method, name, client_uri, scopes)


async def register_client(session: AsyncSession, asked: ClientMetadata) -> dict[str, Any]:
    """A new client (RFC 7591 §3.2.1 response) from its checked metadata. Public clients ask for
    "none" and get no secret; any other method gets a secret, shown once."""
    if await repo.count_clients(session) >= MAX_CLIENTS:
        raise InvalidClientMetadataError("no more clients can be registered now")
    client_id = t.CLIENT_ID_PREFIX + t.generate_token(24)
    public = asked.method == "none"
    secret, secret_hash = (None, None) if public else t.new_secret(t.CLIENT_SECRET_PREFIX)
    client = OAuthClient(
        client_id=client_id,
        secret_hash=secret_hash,
        name=asked.name.strip(),
        client_uri=asked.client_uri,
        redirect_uris=asked.redirect_uris,
        grant_types=asked.grant_types,
        auth_method=asked.method,
    )
    await repo.add(session, client)
    # Anonymous by design (RFC 7591 open registration): actor system; the row keeps the address.
    await audit.record(
        session, "oauth.client_registered", actor=audit.SYSTEM, target_kind="oauth_client",
        target_id=client_id, details={
            "client_id": client_id, "client_name": client.name, "auth_method": asked.method,
            "redirect_uris": client.redirect_uris, "grant_types": client.grant_types,
        },
    )  # fmt: skip
    answer: dict[str, Any] = {
        "client_id": client_id,
        "client_id_issued_at": int(client.created_at.timestamp()),
        "client_name": client.name or None,
        "redirect_uris": client.redirect_uris,
        "grant_types": client.grant_types,
        "response_types": ["code"],
        "token_endpoint_auth_method": asked.method,
    }
    if asked.scopes is not None:
        answer["scope"] = list_to_scope(asked.scopes)
    if asked.client_uri:
        answer["client_uri"] = asked.client_uri
    if secret is not None:
        answer["client_secret"] = secret
        answer["client_secret_expires_at"] = 0
    return {k: v for k, v in answer.items() if v is not None}


# ---- client authentication -------------------------------------------------------------------


async def authenticate_client(
    session: AsyncSession, client_id: str | None, secret: str | None, *, via_basic: bool
) -> OAuthClient:
    """The client of a token, revocation or device request (RFC 6749 §2.3): a public client by
    its id, a confidential one by its secret in the method it registered."""
    if not client_id:
        raise InvalidClientError("client_id is required")
    client = await repo.client_by_client_id(session, client_id[:100])
    if client is None:
        raise InvalidClientError("unknown client")
    if client.auth_method == "none":
        return client
    if not secret or client.secret_hash is None:
        raise InvalidClientError("this client authenticates with its client_secret")
    if via_basic != (client.auth_method == "client_secret_basic"):
        raise InvalidClientError(f"this client authenticates with {client.auth_method}")
    if not hashes_match(client.secret_hash, hash_key(secret)):
        raise InvalidClientError("the client_secret is wrong")
    return client
