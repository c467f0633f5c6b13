"""The OAuth 2.1 rules (docs/accounts.md, "Connecting a client by OAuth").

Authlib supplies the RFC pieces: PKCE (``rfc7636``: the S256 comparison and the verifier and
challenge syntax), client metadata validation (``rfc7591.ClientMetadataClaims``), the metadata
document (``rfc8414.AuthorizationServerMetadata``), the error classes and their bodies
(``rfc6749``, ``rfc8628``) and token generation. Its server classes are synchronous and bound to
a framework's request objects, so the flow (which grant, which checks, what is stored) is here,
on our async session: services flush, the route commits.

Refusals raise Authlib's ``OAuth2Error`` subclasses; the endpoints render them as RFC 6749 §5.2
bodies. A refusal that must revoke a grant although the request is refused (a reused refresh
token or code) raises ``FamilyRevoked``: the endpoint has the family revoked right after the
refused request's unit rolls back, before the answer is sent (``kit.units.after_rollback``).
"""

from __future__ import annotations

import ipaddress
import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from urllib.parse import urlsplit

from sqlalchemy.ext.asyncio import AsyncSession

from agora.auth import service as auth
from agora.auth.principal import Permission
from agora.kit.security import hash_key, hashes_match
from agora.kit.timeutil import as_utc, utcnow
from agora.models import OAuthClient, OAuthDeviceCode, OAuthGrant, OAuthToken
from agora.oauth import repository as repo
from agora.oauth import tokens as t
from agora.oauth.rfc import (
    CODE_CHALLENGE_PATTERN,
    CODE_VERIFIER_PATTERN,
    DEVICE_CODE_GRANT_TYPE,
    AccessDeniedError,
    AuthorizationPendingError,
    AuthorizationServerMetadata,
    ClientMetadataClaims,
    ExpiredTokenError,
    InvalidClientError,
    InvalidClientMetadataError,
    InvalidGrantError,
    InvalidRedirectURIError,
    InvalidRequestError,
    InvalidScopeError,
    JoseError,
    OAuth2Error,
    SlowDownError,
    UnauthorizedClientError,
    compare_s256_code_challenge,
    list_to_scope,
    scope_to_list,
)
from agora.settings import Settings

# OAuth scopes are the key permissions (auth/principal.py), admin never: "read" is always granted.
SCOPES: dict[str, str] = {
    Permission.READ.value: "Read the catalogue, your jobs, projects and history",
    Permission.JOBS_WRITE.value: "Create, answer and cancel jobs (spends credits)",
    Permission.PROJECTS_WRITE.value: "Change projects, tasks and conversations",
    Permission.PROFILE_WRITE.value: "Change your profile",
}
GRANT_TYPES = ("authorization_code", "refresh_token", DEVICE_CODE_GRANT_TYPE)
AUTH_METHODS = ("none", "client_secret_post", "client_secret_basic")

# Registration limits (RFC 7591 leaves them to the server).
MAX_CLIENTS = 100_000
MAX_REDIRECT_URIS = 5
MAX_URI_CHARS = 2000
MAX_NAME_CHARS = 200
_LOOPBACK_HOSTS = {"localhost", "127.0.0.1", "::1"}
_REFUSED_SCHEMES = {"javascript", "data", "file", "vbscript", "about", "blob"}


class FamilyRevoked(InvalidGrantError):  # type: ignore[misc]
    """A reused refresh token or code: invalid_grant, and the grant's family is revoked."""

    def __init__(self, grant_id: uuid.UUID, reason: str, description: str) -> None:
        super().__init__(description)
        self.grant_id, self.reason = grant_id, reason


# ---- metadata --------------------------------------------------------------------------------


def issuer(settings: Settings) -> str:
    """The authorization server's identifier (RFC 8414 §2): AGORA_PUBLIC_URL, no trailing /."""
    return settings.public_url.rstrip("/")


def server_metadata(issuer: str) -> dict[str, Any]:
    """RFC 8414 authorization-server metadata (validated by Authlib where the issuer is https)."""
    metadata = AuthorizationServerMetadata(
        {
            "issuer": issuer,
            "authorization_endpoint": f"{issuer}/oauth/authorize",
            "token_endpoint": f"{issuer}/oauth/token",
            "registration_endpoint": f"{issuer}/oauth/register",
            "revocation_endpoint": f"{issuer}/oauth/revoke",
            "device_authorization_endpoint": f"{issuer}/oauth/device_authorization",
            "scopes_supported": list(SCOPES),
            "response_types_supported": ["code"],
            "response_modes_supported": ["query"],
            "grant_types_supported": list(GRANT_TYPES),
            "token_endpoint_auth_methods_supported": list(AUTH_METHODS),
            "revocation_endpoint_auth_methods_supported": list(AUTH_METHODS),
            "code_challenge_methods_supported": ["S256"],
            "service_documentation": f"{issuer}/docs",
        }
    )
    if issuer.startswith("https://"):
        metadata.validate()
    return dict(metadata)


def resource_metadata(issuer: str, resource_path: str) -> dict[str, Any]:
    """RFC 9728 protected-resource metadata for ``issuer`` + ``resource_path`` (/mcp, /sse, /v1
    or the whole server): one authorization server, Agora itself; bearer tokens in the header."""
    return {
        "resource": f"{issuer}{resource_path}",
        "authorization_servers": [issuer],
        "scopes_supported": list(SCOPES),
        "bearer_methods_supported": ["header"],
        "resource_name": "Agora",
        "resource_documentation": f"{issuer}/docs",
    }


# ---- registration (RFC 7591) -----------------------------------------------------------------


def _redirect_uri_allowed(uri: str) -> bool:
    """https anywhere; http on loopback only (RFC 8252 §7.3); a private-use scheme of a native
    app (RFC 8252 §7.1); never a fragment, never javascript:/data:/file:."""
    if len(uri) > MAX_URI_CHARS or "#" in uri:
        return False
    parts = urlsplit(uri)
    scheme = parts.scheme.lower()
    if scheme == "https":
        return bool(parts.hostname)
    if scheme == "http":
        return _is_loopback(parts.hostname)
    return bool(scheme) and scheme not in _REFUSED_SCHEMES and ":" in uri


def _is_loopback(host: str | None) -> bool:
    if not host:
        return False
    if host.lower() in _LOOPBACK_HOSTS:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


async def register_client(session: AsyncSession, body: Any) -> dict[str, Any]:
    """A new client (RFC 7591 §3.2.1 response). Public clients ask for "none" and get no secret;
    any other method gets a secret, shown once."""
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
    uris = metadata.get("redirect_uris") or []
    grant_types = metadata.get("grant_types") or ["authorization_code", "refresh_token"]
    if not isinstance(uris, list) or not all(isinstance(u, str) for u in uris):
        raise InvalidRedirectURIError("redirect_uris must be a list of URIs")
    if len(uris) > MAX_REDIRECT_URIS:
        raise InvalidRedirectURIError(f"at most {MAX_REDIRECT_URIS} redirect URIs")
    bad = [u for u in uris if not _redirect_uri_allowed(u)]
    if bad:
        raise InvalidRedirectURIError(
            f"{bad[0][:100]!r}: https, http on a loopback address, or an app's own scheme"
        )
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
    if metadata.get("scope"):
        _scopes(str(metadata["scope"]))
    if await repo.count_clients(session) >= MAX_CLIENTS:
        raise InvalidClientMetadataError("no more clients can be registered now")
    client_id = t.CLIENT_ID_PREFIX + t.generate_token(24)
    secret, secret_hash = (None, None) if method == "none" else t.new_secret(t.CLIENT_SECRET_PREFIX)
    client = OAuthClient(
        client_id=client_id,
        secret_hash=secret_hash,
        name=name.strip(),
        client_uri=client_uri,
        redirect_uris=list(uris),
        grant_types=list(grant_types),
        auth_method=method,
    )
    await repo.add(session, client)
    answer: dict[str, Any] = {
        "client_id": client_id,
        "client_id_issued_at": int(client.created_at.timestamp()),
        "client_name": client.name or None,
        "redirect_uris": client.redirect_uris,
        "grant_types": client.grant_types,
        "response_types": ["code"],
        "token_endpoint_auth_method": method,
    }
    if metadata.get("scope"):
        answer["scope"] = list_to_scope(_scopes(str(metadata["scope"])))
    if client_uri:
        answer["client_uri"] = client_uri
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


# ---- the authorization request ---------------------------------------------------------------


def _scopes(requested: str | None) -> list[str]:
    """Requested scopes → the granted list ("read" always; unknown ones refused)."""
    asked = scope_to_list(requested or "") or list(SCOPES)
    unknown = [s for s in asked if s not in SCOPES and s != "offline_access"]
    if unknown:
        raise InvalidScopeError(f"unknown scope {unknown[0][:40]!r}; known: {' '.join(SCOPES)}")
    granted = {Permission.READ.value, *[s for s in asked if s in SCOPES]}
    return [s for s in SCOPES if s in granted]


def redirect_uri_matches(registered: list[str], presented: str) -> bool:
    """Exact string match, except the port of a loopback http redirect (RFC 8252 §7.3: a native
    app picks a free port when it runs)."""
    if presented in registered:
        return True
    parts = urlsplit(presented)
    if parts.scheme != "http" or not _is_loopback(parts.hostname):
        return False
    for uri in registered:
        known = urlsplit(uri)
        if (
            known.scheme == "http"
            and known.hostname == parts.hostname
            and (known.path, known.query) == (parts.path, parts.query)
        ):
            return True
    return False


@dataclass(frozen=True)
class AuthorizationRequest:
    client: OAuthClient
    redirect_uri: str
    scopes: list[str]
    state: str | None
    code_challenge: str
    resource: str | None


class RedirectError(Exception):
    """A refused authorization request whose redirect URI is known: the client is told there."""

    def __init__(self, redirect_uri: str, error: OAuth2Error, state: str | None) -> None:
        super().__init__(error.description)
        self.redirect_uri, self.error, self.state = redirect_uri, error, state


def _one(params: dict[str, str], name: str, limit: int = 2000) -> str | None:
    value = params.get(name)
    return value[:limit] if value else None


async def check_authorization_request(
    session: AsyncSession, params: dict[str, str], issuer: str
) -> AuthorizationRequest:
    """RFC 6749 §4.1.1 with OAuth 2.1: the client and its exact redirect URI first (refused on a
    page: ``InvalidRequestError``/``InvalidClientError``), then the rest (refused at the client's
    redirect URI: ``RedirectError``): response_type=code, PKCE with S256 only, known scopes."""
    client_id = _one(params, "client_id", 100)
    client = await repo.client_by_client_id(session, client_id) if client_id else None
    if client is None:
        raise InvalidClientError("unknown client_id")
    redirect_uri = _one(params, "redirect_uri")
    if redirect_uri is None:
        if len(client.redirect_uris) != 1:
            raise InvalidRequestError("redirect_uri is required")
        redirect_uri = client.redirect_uris[0]
    if not redirect_uri_matches(client.redirect_uris, redirect_uri):
        raise InvalidRequestError("redirect_uri is not one this client registered")
    state = _one(params, "state", 500)

    def refuse(error: OAuth2Error) -> RedirectError:
        return RedirectError(redirect_uri, error, state)

    if "authorization_code" not in client.grant_types:
        raise refuse(UnauthorizedClientError("this client did not register authorization_code"))
    if params.get("response_type") != "code":
        raise refuse(InvalidRequestError("response_type must be code"))
    challenge = params.get("code_challenge")
    method = params.get("code_challenge_method")
    if not challenge:
        raise refuse(InvalidRequestError("code_challenge is required (PKCE)"))
    if method != "S256":
        raise refuse(InvalidRequestError("code_challenge_method must be S256"))
    if not CODE_CHALLENGE_PATTERN.match(challenge):
        raise refuse(InvalidRequestError("code_challenge is malformed"))
    resource = _one(params, "resource")
    if resource is not None and not _our_resource(resource, issuer):
        raise refuse(InvalidRequestError("resource is not a resource of this server"))
    try:
        scopes = _scopes(params.get("scope"))
    except InvalidScopeError as exc:
        raise refuse(exc) from None
    return AuthorizationRequest(client, redirect_uri, scopes, state, challenge, resource)


def _our_resource(resource: str, issuer: str) -> bool:
    """RFC 8707: tokens are for this server (MCP and REST); another server's resource is refused."""
    base = issuer.rstrip("/")
    return resource.rstrip("/") == base or resource.startswith(base + "/")


async def check_workspace(
    session: AsyncSession, user_id: uuid.UUID, workspace_id: Any
) -> uuid.UUID:
    """A workspace the person belongs to (personal or an organization's), or AccessDenied."""
    try:
        chosen = uuid.UUID(str(workspace_id))
    except ValueError:
        raise InvalidRequestError("workspace must be one of your workspaces") from None
    if not await auth.is_member(session, user_id, chosen):
        raise InvalidRequestError("workspace must be one of your workspaces")
    return chosen


async def approve(
    session: AsyncSession,
    user_id: uuid.UUID,
    workspace_id: uuid.UUID,
    request: AuthorizationRequest,
) -> str:
    """The person allowed it: a grant and a one-time code (60 s) bound to the PKCE challenge and
    the redirect URI."""
    grant = OAuthGrant(
        client_pk=request.client.id,
        user_id=user_id,
        workspace_id=workspace_id,
        scopes=request.scopes,
    )
    await repo.add(session, grant)
    code, code_hash = t.new_secret(t.CODE_PREFIX)
    await repo.add(
        session,
        OAuthToken(
            grant_id=grant.id,
            kind="code",
            token_hash=code_hash,
            expires_at=utcnow() + t.CODE_LIFETIME,
            code_challenge=request.code_challenge,
            redirect_uri=request.redirect_uri,
        ),
    )
    return code


# ---- the token endpoint ----------------------------------------------------------------------


async def _issue(session: AsyncSession, grant: OAuthGrant) -> dict[str, Any]:
    now = utcnow()
    access, access_hash = t.new_secret(t.ACCESS_PREFIX)
    refresh, refresh_hash = t.new_secret(t.REFRESH_PREFIX)
    await repo.add(
        session,
        OAuthToken(
            grant_id=grant.id,
            kind="access",
            token_hash=access_hash,
            expires_at=now + t.ACCESS_LIFETIME,
        ),
    )
    await repo.add(
        session,
        OAuthToken(
            grant_id=grant.id,
            kind="refresh",
            token_hash=refresh_hash,
            expires_at=now + t.REFRESH_LIFETIME,
        ),
    )
    return {
        "access_token": access,
        "token_type": "Bearer",
        "expires_in": int(t.ACCESS_LIFETIME.total_seconds()),
        "refresh_token": refresh,
        "scope": list_to_scope(grant.scopes),
    }


async def _usable_grant(
    session: AsyncSession, token: OAuthToken, client: OAuthClient
) -> OAuthGrant:
    grant = await repo.grant_by_id(session, token.grant_id)
    if grant is None or grant.client_pk != client.id:
        raise InvalidGrantError("the grant was not issued to this client")
    if grant.revoked_at is not None or token.revoked_at is not None:
        raise InvalidGrantError("the grant has been revoked")
    if not await auth.is_member(session, grant.user_id, grant.workspace_id):
        raise InvalidGrantError("the person is no longer a member of the grant's workspace")
    return grant


async def exchange_code(
    session: AsyncSession, client: OAuthClient, form: dict[str, str], issuer: str
) -> dict[str, Any]:
    """authorization_code: the code once, from its client, to its redirect URI, with the PKCE
    verifier of its challenge. A second use revokes everything issued under the grant."""
    code = form.get("code") or ""
    token = await repo.token_by_hash(session, hash_key(code)) if code else None
    if token is None or token.kind != "code":
        raise InvalidGrantError("the code is not valid")
    grant = await _usable_grant(session, token, client)
    if token.used_at is not None:
        raise FamilyRevoked(grant.id, "code_reuse", "the code was already used")
    if as_utc(token.expires_at) <= utcnow():
        raise InvalidGrantError("the code has expired")
    if form.get("redirect_uri") != token.redirect_uri:
        raise InvalidGrantError("redirect_uri differs from the authorization request's")
    verifier = form.get("code_verifier")
    if not verifier:
        raise InvalidRequestError("code_verifier is required (PKCE)")
    if not CODE_VERIFIER_PATTERN.match(verifier):
        raise InvalidRequestError("code_verifier is malformed")
    if not compare_s256_code_challenge(verifier, token.code_challenge or ""):
        raise InvalidGrantError("code_verifier does not match the code_challenge")
    resource = form.get("resource")
    if resource and not _our_resource(resource, issuer):
        raise InvalidRequestError("resource is not a resource of this server")
    if not await repo.spend_token(session, token.id, utcnow()):
        raise FamilyRevoked(grant.id, "code_reuse", "the code was already used")
    return await _issue(session, grant)


async def refresh(
    session: AsyncSession, client: OAuthClient, form: dict[str, str]
) -> dict[str, Any]:
    """refresh_token: rotation (the old one is spent, a new pair issued); a spent one presented
    again means it was stolen or copied, so the whole family is revoked (OAuth 2.1 §4.3.1)."""
    presented = form.get("refresh_token") or ""
    token = await repo.token_by_hash(session, hash_key(presented)) if presented else None
    if token is None or token.kind != "refresh":
        raise InvalidGrantError("the refresh token is not valid")
    grant = await _usable_grant(session, token, client)
    if token.used_at is not None:
        raise FamilyRevoked(grant.id, "refresh_reuse", "the refresh token was already used")
    if as_utc(token.expires_at) <= utcnow():
        raise InvalidGrantError("the refresh token has expired")
    if form.get("scope"):
        narrowed = _scopes(form["scope"])
        if not set(narrowed) <= set(grant.scopes):
            raise InvalidScopeError("a refresh cannot add scopes")
    if not await repo.spend_token(session, token.id, utcnow()):
        raise FamilyRevoked(grant.id, "refresh_reuse", "the refresh token was already used")
    return await _issue(session, grant)


async def revoke_family(session: AsyncSession, grant_id: uuid.UUID, reason: str) -> None:
    """After a refused request's unit rolled back (``kit.units.after_rollback``): revoke the
    grant (and its tokens) for good."""
    await repo.revoke_grant(session, grant_id, utcnow(), reason)


async def revoke_token(session: AsyncSession, client: OAuthClient, presented: str) -> None:
    """RFC 7009: a refresh token revokes its grant (every token of it), an access token itself.
    Unknown tokens and other clients' tokens are ignored (the answer is 200 anyway)."""
    token = await repo.token_by_hash(session, hash_key(presented)) if presented else None
    if token is None or token.kind == "code":
        return
    grant = await repo.grant_by_id(session, token.grant_id)
    if grant is None or grant.client_pk != client.id:
        return
    if token.kind == "refresh":
        await repo.revoke_grant(session, grant.id, utcnow(), "revoked")
    else:
        await repo.revoke_token(session, token.id, utcnow())


# ---- the person's grants ---------------------------------------------------------------------


async def authorized_apps(session: AsyncSession, user_id: uuid.UUID) -> list[repo.GrantListed]:
    return await repo.active_grants(session, user_id)


async def revoke_grant_of(session: AsyncSession, user_id: uuid.UUID, grant_id: str) -> bool:
    """The person revokes one of their grants (another person's: False, shown as not found)."""
    try:
        parsed = uuid.UUID(grant_id)
    except ValueError:
        return False
    grant = await repo.grant_by_id(session, parsed)
    if grant is None or grant.user_id != user_id:
        return False
    await repo.revoke_grant(session, grant.id, utcnow(), "revoked")
    return True


# ---- device authorization (RFC 8628) ---------------------------------------------------------


async def start_device(
    session: AsyncSession, client: OAuthClient, scope: str | None, issuer: str
) -> dict[str, Any]:
    if DEVICE_CODE_GRANT_TYPE not in client.grant_types:
        raise UnauthorizedClientError("this client did not register the device_code grant")
    scopes = _scopes(scope)
    device_code, device_hash = t.new_secret("")
    user_code = t.new_user_code()
    await repo.add(
        session,
        OAuthDeviceCode(
            client_pk=client.id,
            device_hash=device_hash,
            user_code=user_code,
            scopes=scopes,
            interval=t.DEVICE_INTERVAL_SECONDS,
            expires_at=utcnow() + t.DEVICE_LIFETIME,
        ),
    )
    shown = t.show_user_code(user_code)
    return {
        "device_code": device_code,
        "user_code": shown,
        "verification_uri": f"{issuer}/oauth/device",
        "verification_uri_complete": f"{issuer}/oauth/device?user_code={shown}",
        "expires_in": int(t.DEVICE_LIFETIME.total_seconds()),
        "interval": t.DEVICE_INTERVAL_SECONDS,
    }


# Last poll per device request, in this process (RFC 8628 §3.5 slow_down). A refused poll's
# unit rolls back, so this is memory, not a column; bounded.
_last_poll: dict[uuid.UUID, datetime] = {}


async def poll_device(
    session: AsyncSession, client: OAuthClient, form: dict[str, str]
) -> dict[str, Any]:
    presented = form.get("device_code") or ""
    device = await repo.device_by_hash(session, hash_key(presented)) if presented else None
    if device is None or device.client_pk != client.id:
        raise InvalidGrantError("the device_code is not valid")
    now = utcnow()
    if as_utc(device.expires_at) <= now or device.used_at is not None:
        raise ExpiredTokenError("the device code has expired")
    if device.denied_at is not None:
        raise AccessDeniedError("the person refused")
    if device.grant_id is None:
        last = _last_poll.get(device.id)
        if len(_last_poll) > 100_000:
            _last_poll.clear()
        _last_poll[device.id] = now
        if last is not None and (now - last).total_seconds() < device.interval:
            raise SlowDownError("poll at most every interval seconds")
        raise AuthorizationPendingError("the person has not answered yet")
    _last_poll.pop(device.id, None)
    device.used_at = now
    grant = await repo.grant_by_id(session, device.grant_id)
    if grant is None or grant.revoked_at is not None:
        raise InvalidGrantError("the grant has been revoked")
    await session.flush()
    return await _issue(session, grant)


async def pending_device(session: AsyncSession, user_code: str) -> OAuthDeviceCode | None:
    """The unanswered, unexpired device request with this user code (None otherwise)."""
    device = await repo.device_by_user_code(session, t.normalize_user_code(user_code))
    if device is None or device.grant_id is not None or device.denied_at is not None:
        return None
    if as_utc(device.expires_at) <= utcnow():
        return None
    return device


async def answer_device(
    session: AsyncSession,
    device: OAuthDeviceCode,
    user_id: uuid.UUID,
    workspace_id: uuid.UUID,
    allow: bool,
) -> None:
    if not allow:
        device.denied_at = utcnow()
        await session.flush()
        return
    grant = OAuthGrant(
        client_pk=device.client_pk, user_id=user_id, workspace_id=workspace_id, scopes=device.scopes
    )
    await repo.add(session, grant)
    device.grant_id = grant.id
    await session.flush()


async def client_of(session: AsyncSession, client_pk: uuid.UUID) -> OAuthClient | None:
    return await repo.client_by_pk(session, client_pk)
