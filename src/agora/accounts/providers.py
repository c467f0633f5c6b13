"""The identity providers people sign in with (docs/accounts.md, "Identity providers"): Google,
Microsoft and any OpenID Connect issuer the operator configures (OIDC, Authlib's client pieces:
PKCE, the ID token's claims; joserfc verifies its signature), and GitHub (OAuth 2 and its REST
API). This module only talks to the provider; the account rules are ``identities.py``.

Every call goes through the outbound guard (``kit/outbound``): no redirects, bounded answers,
a total time per call (``AGORA_IDP_TIMEOUT_SECONDS``). A provider's discovery document and its
signing keys (JWKS) are kept per process for ``METADATA_SECONDS`` (the sign-in's two calls
before the code exchange are then none); an ID token signed with a key not kept (the provider
rotated its keys) fetches the keys again once, at once.
"""

from __future__ import annotations

import hmac
import json
import time
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from authlib.oauth2.rfc7636 import create_s256_code_challenge
from authlib.oidc.core import CodeIDToken
from joserfc import jwt
from joserfc.errors import JoseError
from joserfc.jwk import KeySet
from joserfc.jws import JWSRegistry

from agora.kit.errors import BadRequest, NotFound, ServiceUnavailable
from agora.kit.outbound import OutboundError, OutboundPolicy, guarded_client, send_limited
from agora.settings import Settings

GOOGLE_ISSUER = "https://accounts.google.com"
MICROSOFT_ISSUER = "https://login.microsoftonline.com/{tenant}/v2.0"
OIDC_SCOPE = "openid email profile"
GITHUB_SCOPE = "read:user user:email"
# Signature algorithms accepted on an ID token: asymmetric only (never "none", never an HMAC
# keyed with the client secret).
ASYMMETRIC = frozenset({"RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384",
                        "ES512", "EdDSA"})  # fmt: skip
MAX_ANSWER_BYTES = 262_144
CLOCK_LEEWAY_SECONDS = 120
METADATA_SECONDS = 3600.0  # discovery documents and JWKS kept this long (Google: about a day)


@dataclass(frozen=True)
class Provider:
    key: str  # google | microsoft | oidc | github: in paths, sessions' method, the org rule
    name: str  # on buttons and in messages
    issuer: str  # the OIDC issuer (discovery) or GitHub's web URL
    client_id: str
    client_secret: str

    @property
    def oidc(self) -> bool:
        return self.key != "github"


@dataclass(frozen=True)
class Endpoints:
    authorization: str
    token: str
    jwks: str = ""
    issuer: str = ""  # the metadata's issuer (Microsoft's multi-tenant one has "{tenantid}")
    algorithms: tuple[str, ...] = ("RS256",)


@dataclass(frozen=True)
class Claims:
    """Who the provider says signed in: the key (issuer, subject) and what is shown."""

    issuer: str
    subject: str
    email: str | None
    email_verified: bool
    name: str


def configured(settings: Settings) -> list[Provider]:
    """The providers whose client id and secret are set, in the sign-in page's order."""
    s = settings.idp
    found = [
        Provider("google", "Google", GOOGLE_ISSUER, s.google_client_id, s.google_client_secret),
        Provider(
            "microsoft",
            "Microsoft",
            MICROSOFT_ISSUER.format(tenant=s.microsoft_tenant.strip() or "common"),
            s.microsoft_client_id,
            s.microsoft_client_secret,
        ),
        Provider(
            "oidc",
            s.oidc_name.strip() or "Single sign-on",
            s.oidc_issuer.strip().rstrip("/"),
            s.oidc_client_id,
            s.oidc_client_secret,
        ),
        Provider(
            "github",
            "GitHub",
            s.github_url.strip().rstrip("/"),
            s.github_client_id,
            s.github_client_secret,
        ),
    ]
    return [p for p in found if p.issuer and p.client_id and p.client_secret]


def provider(settings: Settings, key: str) -> Provider:
    for found in configured(settings):
        if found.key == key:
            return found
    raise NotFound(f"No identity provider {key[:40]!r} is configured here")


def label(settings: Settings, key: str) -> str:
    """A provider's name for messages, configured or not (an organization's rule may outlive
    the operator's configuration)."""
    names = {"google": "Google", "microsoft": "Microsoft", "github": "GitHub",
             "oidc": settings.idp.oidc_name.strip() or "Single sign-on"}  # fmt: skip
    return names.get(key, key)


def challenge(verifier: str) -> str:
    """PKCE S256 (RFC 7636): what the authorization request carries of the verifier."""
    return str(create_s256_code_challenge(verifier))


# ---- calls to the provider ----------------------------------------------------------------------


def _failed(provider: Provider, what: str) -> ServiceUnavailable:
    return ServiceUnavailable(f"Signing in with {provider.name} failed ({what}); try again later")


async def _call(
    settings: Settings, provider: Provider, method: str, url: str, **kwargs: Any
) -> tuple[int, Any]:
    """One bounded, guarded call; the answer's status and its JSON (None if not JSON)."""
    seconds = settings.idp.timeout_seconds
    policy = OutboundPolicy.from_setting(settings.outbound_allow)
    try:
        async with guarded_client(policy, timeout=seconds) as client:
            answer = await send_limited(
                client, method, url, max_bytes=MAX_ANSWER_BYTES, total_seconds=seconds, **kwargs
            )
    except OutboundError as exc:
        raise _failed(provider, "unreachable") from exc
    try:
        return answer.status_code, json.loads(answer.body)
    except ValueError:
        return answer.status_code, None


async def _json(
    settings: Settings, provider: Provider, method: str, url: str, **kwargs: Any
) -> Any:
    status, body = await _call(settings, provider, method, url, **kwargs)
    if status != 200 or body is None:
        raise _failed(provider, f"HTTP {status}")
    return body


class _Kept:
    """What a provider published, per process: at most one entry per configured provider's
    issuer or key set URL (a handful), each for ``METADATA_SECONDS``. An entry is kept under
    the outbound policy it was fetched with: under another, it is fetched (and guarded) again."""

    def __init__(self) -> None:
        self._entries: dict[tuple[str, str], tuple[float, Any]] = {}

    def get(self, settings: Settings, url: str) -> Any | None:
        found = self._entries.get((settings.outbound_allow, url))
        if found is None or time.monotonic() - found[0] > METADATA_SECONDS:
            return None
        return found[1]

    def put(self, settings: Settings, url: str, value: Any) -> None:
        self._entries[(settings.outbound_allow, url)] = (time.monotonic(), value)


_DISCOVERED = _Kept()
_KEY_SETS = _Kept()


async def endpoints(settings: Settings, provider: Provider) -> Endpoints:
    """Where to send the person and where to exchange the code: OpenID Connect discovery
    (``{issuer}/.well-known/openid-configuration``, kept ``METADATA_SECONDS``), or GitHub's
    fixed paths."""
    if not provider.oidc:
        return Endpoints(
            authorization=f"{provider.issuer}/login/oauth/authorize",
            token=f"{provider.issuer}/login/oauth/access_token",
        )
    kept: Endpoints | None = _DISCOVERED.get(settings, provider.issuer)
    if kept is not None:
        return kept
    found = await _discover(settings, provider)
    _DISCOVERED.put(settings, provider.issuer, found)
    return found


async def _discover(settings: Settings, provider: Provider) -> Endpoints:
    meta = await _json(
        settings, provider, "GET", f"{provider.issuer}/.well-known/openid-configuration"
    )
    try:
        algorithms = tuple(
            a for a in meta.get("id_token_signing_alg_values_supported") or ["RS256"]
            if a in ASYMMETRIC
        )  # fmt: skip
        found = Endpoints(
            authorization=str(meta["authorization_endpoint"]),
            token=str(meta["token_endpoint"]),
            jwks=str(meta["jwks_uri"]),
            issuer=str(meta["issuer"]),
            algorithms=algorithms or ("RS256",),
        )
    except (KeyError, TypeError, AttributeError) as exc:
        raise _failed(provider, "incomplete discovery document") from exc
    # OpenID Connect Discovery 1.0 §4.3: the document's issuer is the one it was fetched for
    # (Microsoft's multi-tenant document names a template, checked against each ID token).
    if provider.key != "microsoft" and found.issuer.rstrip("/") != provider.issuer:
        raise _failed(provider, "the discovery document names another issuer")
    return found


def authorization_url(
    where: Endpoints,
    provider: Provider,
    *,
    redirect_uri: str,
    state: str,
    nonce: str,
    verifier: str,
) -> str:
    """The provider's sign-in page for this flow: state, PKCE (S256) and, for OIDC, the nonce."""
    params = {
        "response_type": "code",
        "client_id": provider.client_id,
        "redirect_uri": redirect_uri,
        "scope": OIDC_SCOPE if provider.oidc else GITHUB_SCOPE,
        "state": state,
        "code_challenge": challenge(verifier),
        "code_challenge_method": "S256",
    }
    if provider.oidc:
        params["nonce"] = nonce
    separator = "&" if "?" in where.authorization else "?"
    return f"{where.authorization}{separator}{urlencode(params)}"


async def _exchange(
    settings: Settings, provider: Provider, where: Endpoints, redirect_uri: str, code: str,
    verifier: str,
) -> dict[str, Any]:  # fmt: skip
    form = {
        "grant_type": "authorization_code",
        "code": code,
        "redirect_uri": redirect_uri,
        "client_id": provider.client_id,
        "client_secret": provider.client_secret,
        "code_verifier": verifier,
    }
    status, body = await _call(
        settings, provider, "POST", where.token, data=form, headers={"Accept": "application/json"}
    )
    if not isinstance(body, dict) or status != 200 or "error" in body:
        error = body.get("error") if isinstance(body, dict) else None
        raise BadRequest(
            f"{provider.name} did not accept the sign-in"
            + (f" ({str(error)[:80]})" if error else f" (HTTP {status})")
            + "; start again"
        )
    if not isinstance(body.get("access_token"), str):
        raise _failed(provider, "no access token")
    return body


async def identity(
    settings: Settings,
    provider: Provider,
    *,
    redirect_uri: str,
    code: str,
    nonce: str,
    verifier: str,
) -> Claims:
    """Exchange the code (with the PKCE verifier) and say who signed in: for OIDC from the
    verified ID token (signature, issuer, audience, expiry, nonce); for GitHub from its API."""
    where = await endpoints(settings, provider)
    token = await _exchange(settings, provider, where, redirect_uri, code, verifier)
    if provider.oidc:
        return await _id_token_claims(settings, provider, where, token, nonce)
    return await _github_claims(settings, provider, token["access_token"])


def _decoded(raw: str, keys: Any, registry: JWSRegistry) -> jwt.Token | None:
    """The ID token verified against a kept key set, or None if that set does not verify it."""
    try:
        return jwt.decode(raw, KeySet.import_key_set(keys), registry=registry)
    except (JoseError, ValueError):
        return None


async def _id_token_claims(
    settings: Settings, provider: Provider, where: Endpoints, token: dict[str, Any], nonce: str
) -> Claims:
    raw = token.get("id_token")
    if not isinstance(raw, str):
        raise _failed(provider, "no ID token")
    refused = BadRequest(f"The answer of {provider.name} could not be verified; start again")
    registry = JWSRegistry(algorithms=list(where.algorithms), strict_check_header=False)
    kept = _KEY_SETS.get(settings, where.jwks)
    try:
        decoded = _decoded(raw, kept, registry) if kept is not None else None
        if decoded is None:  # no keys kept, or the provider rotated its keys: fetch them
            keys = await _json(settings, provider, "GET", where.jwks)
            decoded = jwt.decode(raw, KeySet.import_key_set(keys), registry=registry)
            _KEY_SETS.put(settings, where.jwks, keys)
        payload = dict(decoded.claims)
        # Microsoft's multi-tenant metadata names the issuer "…/{tenantid}/v2.0".
        issuer = where.issuer.replace("{tenantid}", str(payload.get("tid", "")))
        claims = CodeIDToken(
            payload,
            decoded.header,
            {"iss": {"essential": True, "value": issuer}, "aud": {"essential": True,
             "value": provider.client_id}},
            {"nonce": nonce, "client_id": provider.client_id,
             "access_token": token["access_token"]},
        )  # fmt: skip
        claims.validate(leeway=CLOCK_LEEWAY_SECONDS)
    except (JoseError, ValueError, TypeError, KeyError) as exc:
        raise refused from exc
    # The nonce binds the ID token to this browser's flow: present and equal, always.
    if not hmac.compare_digest(str(payload.get("nonce", "")).encode(), nonce.encode()):
        raise refused
    email = payload.get("email")
    verified = payload.get("email_verified") is True or payload.get("xms_edov") is True
    name = payload.get("name") or payload.get("preferred_username") or ""
    return Claims(
        issuer=str(payload["iss"])[:500],
        subject=str(payload["sub"])[:255],
        email=email.strip().lower()[:320] if isinstance(email, str) and email else None,
        email_verified=verified,
        name=str(name).strip()[:200],
    )


async def _github_claims(settings: Settings, provider: Provider, access_token: str) -> Claims:
    """GitHub REST: ``GET /user`` (the numeric id is the subject) and ``GET /user/emails`` (the
    primary address and whether GitHub verified it)."""
    api = settings.idp.github_api_url.strip().rstrip("/")
    headers = {
        "Authorization": f"Bearer {access_token}",
        "Accept": "application/vnd.github+json",
        "X-GitHub-Api-Version": "2022-11-28",
    }
    user = await _json(settings, provider, "GET", f"{api}/user", headers=headers)
    emails = await _json(settings, provider, "GET", f"{api}/user/emails", headers=headers)
    if not isinstance(user, dict) or not isinstance(user.get("id"), int):
        raise _failed(provider, "no user id")
    primary = next(
        (
            e for e in emails if isinstance(e, dict) and e.get("primary")
            and isinstance(e.get("email"), str)
        ),
        None,
    ) if isinstance(emails, list) else None  # fmt: skip
    return Claims(
        issuer=provider.issuer,
        subject=str(user["id"]),
        email=primary["email"].strip().lower()[:320] if primary else None,
        email_verified=bool(primary and primary.get("verified") is True),
        name=str(user.get("name") or user.get("login") or "").strip()[:200],
    )
