"""The OAuth 2.1 rules (docs/accounts.md, "Connecting a client by OAuth").

Authlib supplies the RFC pieces: PKCE (``rfc7636``: the S256 comparison and the verifier and
challenge syntax), client metadata validation (``rfc7591.ClientMetadataClaims``), the metadata
document (``rfc8414.AuthorizationServerMetadata``), the error classes and their bodies
(``rfc6749``, ``rfc8628``) and token generation. Its server classes are synchronous and bound to
a framework's request objects, so the flow (which grant, which checks, what is stored) is here,
on our async session: services flush, the route commits. Here: the scopes, the metadata, the
authorization request and its consent, the token endpoint's grants and the person's grants;
client registration and authentication are in ``clients.py``, the device flow in ``device.py``.

Refusals raise Authlib's ``OAuth2Error`` subclasses; the endpoints render them as RFC 6749 §5.2
bodies. A refusal that must revoke a grant although the request is refused (a reused refresh
token or code) raises ``FamilyRevoked``: the endpoint has the family revoked right after the
refused request's unit rolls back, before the answer is sent (``kit.units.after_rollback``).
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from agora.audit import service as audit
from agora.auth import service as auth
from agora.auth.principal import Permission, Principal
from agora.kit.errors import BadRequest
from agora.kit.ids import parse_uuid
from agora.kit.security import hash_key
from agora.kit.timeutil import as_utc, utcnow
from agora.mcp.auth import LEAST_SCOPES
from agora.models import OAuthClient, OAuthGrant, OAuthToken
from agora.oauth import redirects
from agora.oauth import repository as repo
from agora.oauth import tokens as t
from agora.oauth.rfc import (
    CODE_CHALLENGE_PATTERN,
    CODE_VERIFIER_PATTERN,
    DEVICE_CODE_GRANT_TYPE,
    AuthorizationServerMetadata,
    InvalidClientError,
    InvalidGrantError,
    InvalidRequestError,
    InvalidScopeError,
    InvalidTargetError,
    OAuth2Error,
    UnauthorizedClientError,
    compare_s256_code_challenge,
    echo,
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


MCP_RESOURCES = ("/mcp", "/sse")


def resource_metadata(issuer: str, resource_path: str) -> dict[str, Any]:
    """RFC 9728 protected-resource metadata for ``issuer`` + ``resource_path`` (/mcp, /sse, /v1
    or the whole server): one authorization server, Agora itself; bearer tokens in the header.
    The MCP endpoints advertise only the least scopes their tools need (``mcp.auth``), so a
    client taking ``scopes_supported`` whole asks for no more; the rest lists every scope, the
    least first."""
    scopes = LEAST_SCOPES if resource_path.rstrip("/") in MCP_RESOURCES else SCOPES
    return {
        "resource": f"{issuer}{resource_path}",
        "authorization_servers": [issuer],
        "scopes_supported": [str(s) for s in scopes],
        "bearer_methods_supported": ["header"],
        "resource_name": "Agora",
        "resource_documentation": f"{issuer}/docs",
    }


# ---- the authorization request ---------------------------------------------------------------


def granted_scopes(requested: str | None) -> list[str]:
    """Requested scopes → the granted list ("read" always; unknown ones refused)."""
    asked = scope_to_list(requested or "") or list(SCOPES)
    unknown = [s for s in asked if s not in SCOPES and s != "offline_access"]
    if unknown:
        known = " ".join(SCOPES)
        raise InvalidScopeError(f"unknown scope '{echo(unknown[0], 40)}'; known: {known}")
    granted = {Permission.READ.value, *[s for s in asked if s in SCOPES]}
    return [s for s in SCOPES if s in granted]


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
    if not redirects.matches(client.redirect_uris, redirect_uri):
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
    try:
        check_resource(resource, issuer)
    except InvalidTargetError as exc:
        raise refuse(exc) from None
    try:
        scopes = granted_scopes(params.get("scope"))
    except InvalidScopeError as exc:
        raise refuse(exc) from None
    return AuthorizationRequest(client, redirect_uri, scopes, state, challenge, resource)


def check_resource(resource: str | None, issuer: str) -> None:
    """RFC 8707 §2: tokens are for this server (MCP and REST). A ``resource`` naming another
    server, or not an absolute URI without a fragment, is ``invalid_target`` (on the
    authorization endpoint at the client's redirect URI, on the token endpoint a 400)."""
    if resource is None:
        return
    base = issuer.rstrip("/")
    ours = resource.rstrip("/") == base or resource.startswith(base + "/")
    if not ours or "#" in resource:
        raise InvalidTargetError("resource is not a resource of this server")


async def check_workspace(session: AsyncSession, user_id: uuid.UUID, raw: str) -> uuid.UUID:
    """A workspace the person belongs to (personal or an organization's): the consent and device
    pages' choice (400 naming ``workspace`` otherwise)."""
    chosen = parse_uuid(raw)
    if chosen is None or not await auth.is_member(session, user_id, chosen):
        raise BadRequest.field("workspace", "workspace must be one of your workspaces")
    return chosen


def client_facts(client: OAuthClient, scopes: list[str]) -> dict[str, Any]:
    """What an OAuth audit row says about the client and the scopes (facts, never a secret)."""
    return {"client_id": client.client_id, "client_name": client.name, "scopes": scopes}


async def record_denied(
    session: AsyncSession, principal: Principal, client: OAuthClient, scopes: list[str], flow: str
) -> None:
    """The person refused a client (consent page or device page): ``oauth.denied``."""
    await audit.record(
        session, "oauth.denied", actor=principal, target_kind="oauth_client",
        target_id=client.client_id, details={**client_facts(client, scopes), "flow": flow},
    )  # fmt: skip


async def record_granted(
    session: AsyncSession, action: str, principal: Principal, client: OAuthClient,
    grant: OAuthGrant, **facts: str,
) -> None:  # fmt: skip
    """The person allowed a client (``oauth.consented``, ``oauth.device_approved``): the
    grant, in the workspace it acts in (so the organization's owners read it too)."""
    await audit.record(
        session, action, actor=principal, target_kind="oauth_grant", target_id=grant.id,
        workspace_id=grant.workspace_id, details={**client_facts(client, grant.scopes), **facts},
    )  # fmt: skip


async def answer_authorization(
    session: AsyncSession,
    request: AuthorizationRequest,
    principal: Principal,
    *,
    allow: bool,
    workspace: str,
) -> dict[str, str | None]:
    """The person's answer on the consent page: the parameters for the client's redirect URI,
    a code (allowed, in the chosen workspace) or ``access_denied``; either way an audit row."""
    if not allow:
        client, scopes = request.client, request.scopes
        await record_denied(session, principal, client, scopes, "authorization_code")
        return {"error": "access_denied", "state": request.state}
    workspace_id = await check_workspace(session, principal.user_id, workspace)
    code = await approve(session, principal, workspace_id, request)
    return {"code": code, "state": request.state}


async def approve(
    session: AsyncSession,
    principal: Principal,
    workspace_id: uuid.UUID,
    request: AuthorizationRequest,
) -> str:
    """The person allowed it: a grant and a one-time code (60 s) bound to the PKCE challenge and
    the redirect URI."""
    grant = OAuthGrant(
        client_pk=request.client.id,
        user_id=principal.user_id,
        workspace_id=workspace_id,
        scopes=request.scopes,
    )
    await repo.add(session, grant)
    await record_granted(
        session, "oauth.consented", principal, request.client, grant,
        redirect_uri=request.redirect_uri,
    )  # fmt: skip
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


async def issue_tokens(session: AsyncSession, grant: OAuthGrant) -> dict[str, Any]:
    """A new access token and refresh token of ``grant`` (RFC 6749 §5.1 answer)."""
    now = utcnow()
    issued: dict[str, str] = {}
    for kind, prefix, lifetime in (
        ("access", t.ACCESS_PREFIX, t.ACCESS_LIFETIME),
        ("refresh", t.REFRESH_PREFIX, t.REFRESH_LIFETIME),
    ):
        issued[kind], token_hash = t.new_secret(prefix)
        token = OAuthToken(
            grant_id=grant.id, kind=kind, token_hash=token_hash, expires_at=now + lifetime
        )
        await repo.add(session, token)
    return {
        "access_token": issued["access"],
        "token_type": "Bearer",
        "expires_in": int(t.ACCESS_LIFETIME.total_seconds()),
        "refresh_token": issued["refresh"],
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


async def _presented(
    session: AsyncSession, client: OAuthClient, presented: str, kind: str, reuse: str
) -> tuple[OAuthToken, OAuthGrant]:
    """The unspent, unexpired code or refresh token presented, and its usable grant. One spent
    already and presented again revokes everything issued under the grant (``FamilyRevoked``):
    it was stolen or copied (OAuth 2.1 §4.3.1)."""
    what = "code" if kind == "code" else "refresh token"
    token = await repo.token_by_hash(session, hash_key(presented)) if presented else None
    if token is None or token.kind != kind:
        raise InvalidGrantError(f"the {what} is not valid")
    grant = await _usable_grant(session, token, client)
    if token.used_at is not None:
        raise FamilyRevoked(grant.id, reuse, f"the {what} was already used")
    if as_utc(token.expires_at) <= utcnow():
        raise InvalidGrantError(f"the {what} has expired")
    return token, grant


async def _spend(
    session: AsyncSession, token: OAuthToken, grant: OAuthGrant, reuse: str
) -> dict[str, Any]:
    """Spend ``token`` (compare-and-set: a concurrent use that won first revokes the family)
    and issue a new pair."""
    if not await repo.spend_token(session, token.id, utcnow()):
        what = "code" if token.kind == "code" else "refresh token"
        raise FamilyRevoked(grant.id, reuse, f"the {what} was already used")
    return await issue_tokens(session, grant)


async def exchange_code(
    session: AsyncSession, client: OAuthClient, form: dict[str, str]
) -> dict[str, Any]:
    """authorization_code: the code once, from its client, to its redirect URI, with the PKCE
    verifier of its challenge. A second use revokes everything issued under the grant."""
    token, grant = await _presented(session, client, form.get("code") or "", "code", "code_reuse")
    if form.get("redirect_uri") != token.redirect_uri:
        raise InvalidGrantError("redirect_uri differs from the authorization request's")
    verifier = form.get("code_verifier")
    if not verifier:
        raise InvalidRequestError("code_verifier is required (PKCE)")
    if not CODE_VERIFIER_PATTERN.match(verifier):
        raise InvalidRequestError("code_verifier is malformed")
    if not compare_s256_code_challenge(verifier, token.code_challenge or ""):
        raise InvalidGrantError("code_verifier does not match the code_challenge")
    return await _spend(session, token, grant, "code_reuse")


async def refresh(
    session: AsyncSession, client: OAuthClient, form: dict[str, str]
) -> dict[str, Any]:
    """refresh_token: rotation (the old one is spent, a new pair issued); a spent one presented
    again revokes the whole family."""
    presented = form.get("refresh_token") or ""
    token, grant = await _presented(session, client, presented, "refresh", "refresh_reuse")
    if form.get("scope"):
        narrowed = granted_scopes(form["scope"])
        if not set(narrowed) <= set(grant.scopes):
            raise InvalidScopeError("a refresh cannot add scopes")
    return await _spend(session, token, grant, "refresh_reuse")


async def revoke_grant(
    session: AsyncSession, grant: OAuthGrant, reason: str, actor: Principal | audit.Actor
) -> None:
    """Revoke ``grant`` and every token of it; the ``oauth.grant_revoked`` audit row when it was
    still active (``reason``: revoked, code_reuse, refresh_reuse; ``by``: who)."""
    if not await repo.revoke_grant(session, grant.id, utcnow(), reason):
        return
    client = await repo.client_by_pk(session, grant.client_pk)
    facts = client_facts(client, grant.scopes) if client is not None else {}
    by = "person" if isinstance(actor, Principal) else "client" if reason == "revoked" else "reuse"
    await audit.record(
        session, "oauth.grant_revoked", actor=actor, target_kind="oauth_grant",
        target_id=grant.id, workspace_id=grant.workspace_id,
        details={**facts, "user_id": grant.user_id, "reason": reason, "by": by},
    )  # fmt: skip


async def revoke_family(session: AsyncSession, grant_id: uuid.UUID, reason: str) -> None:
    """After a refused request's unit rolled back (``kit.units.after_rollback``): revoke the
    grant (and its tokens) for good."""
    grant = await repo.grant_by_id(session, grant_id)
    if grant is not None:
        await revoke_grant(session, grant, reason, audit.SYSTEM)


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
        await revoke_grant(session, grant, "revoked", audit.SYSTEM)
    else:
        await repo.revoke_token(session, token.id, utcnow())


# ---- the person's grants ---------------------------------------------------------------------


async def authorized_apps(session: AsyncSession, user_id: uuid.UUID) -> list[repo.GrantListed]:
    return await repo.active_grants(session, user_id)


async def revoke_grant_of(session: AsyncSession, principal: Principal, grant_id: str) -> bool:
    """The person revokes one of their grants (another person's: False, shown as not found)."""
    try:
        parsed = uuid.UUID(grant_id)
    except ValueError:
        return False
    grant = await repo.grant_by_id(session, parsed)
    if grant is None or grant.user_id != principal.user_id:
        return False
    await revoke_grant(session, grant, "revoked", principal)
    return True
