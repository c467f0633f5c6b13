"""Identity providers on loopback for the sign-in tests (tests/accounts/test_identity_providers.py).

- ``oidc_provider()``: a real OpenID Connect provider, ``oidc-provider-mock`` 0.3.4 (PyPI; Authlib's
  authorization server inside Flask, served by uvicorn), started as its own process with
  ``--require-nonce``. A test sets a person's claims with ``PUT /users/{sub}`` and "signs in" at
  the provider by posting ``sub`` to its authorization form (what its page's form posts).
  It does not check PKCE (no code challenge extension is registered in 0.3.4), so PKCE is checked
  by the GitHub double below and by what the authorization request carries.
- ``GitHubDouble``: a small ASGI app answering as GitHub's documented OAuth app endpoints do:
  ``GET /login/oauth/authorize`` (redirects back with ``code`` and ``state``),
  ``POST /login/oauth/access_token`` (JSON with ``Accept: application/json``; a refused code is
  a 200 with ``{"error": "bad_verification_code", …}``; PKCE S256 checked), ``GET /user`` and
  ``GET /user/emails`` (Bearer token; 401 ``{"message": "Bad credentials"}``). Sources:
  docs.github.com/en/apps/oauth-apps/building-oauth-apps/authorizing-oauth-apps,
  docs.github.com/en/apps/oauth-apps/maintaining-oauth-apps/troubleshooting-oauth-app-access-token-request-errors,
  docs.github.com/en/rest/users/users#get-the-authenticated-user,
  docs.github.com/en/rest/users/emails#list-email-addresses-for-the-authenticated-user
  (REST API version 2022-11-28).
"""

from __future__ import annotations

import base64
import hashlib
import secrets
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit

import httpx2
from joserfc import jwt
from joserfc.jwk import RSAKey
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import Route

from tests.support.server import free_port, port_listens


@contextmanager
def oidc_provider() -> Iterator[str]:
    """``python -m oidc_provider_mock`` on a free loopback port; yields its issuer URL."""
    port = free_port()
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "oidc_provider_mock",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--require-nonce",
            "true",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    issuer = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 20
        while not port_listens(port):
            if time.monotonic() > deadline or process.poll() is not None:
                raise RuntimeError("oidc-provider-mock did not start within 20 s")
            time.sleep(0.05)
        yield issuer
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)


def set_oidc_user(issuer: str, sub: str, **claims: Any) -> None:
    """The provider's ``PUT /users/{sub}``: the claims its tokens carry for ``sub``."""
    answer = httpx2.put(f"{issuer}/users/{sub}", json=claims, timeout=10)
    assert answer.status_code == 204, answer.text


def authorize_at_oidc(authorization_url: str, sub: str) -> str:
    """Sign in at the provider as ``sub`` (its authorization form's POST); the redirect back
    to Agora's callback (path and query)."""
    answer = httpx2.post(authorization_url, data={"sub": sub}, timeout=10)
    assert answer.status_code in (302, 303), answer.text
    back = urlsplit(answer.headers["location"])
    return f"{back.path}?{back.query}"


# ---- GitHub ------------------------------------------------------------------------------------


@dataclass
class GitHubUser:
    id: int
    login: str
    name: str
    emails: list[dict[str, Any]]


@dataclass
class GitHubDouble:
    client_id: str = "gh-client"
    client_secret: str = "gh-secret"
    signed_in: GitHubUser | None = None  # who "is signed in at GitHub" in the browser
    codes: dict[str, tuple[GitHubUser, str, str]] = field(default_factory=dict)
    tokens: dict[str, GitHubUser] = field(default_factory=dict)
    verifiers_seen: list[str] = field(default_factory=list)

    def app(self) -> Starlette:
        return Starlette(
            routes=[
                Route("/login/oauth/authorize", self.authorize, methods=["GET"]),
                Route("/login/oauth/access_token", self.access_token, methods=["POST"]),
                Route("/user", self.user, methods=["GET"]),
                Route("/user/emails", self.emails, methods=["GET"]),
            ]
        )

    async def authorize(self, request: Request) -> Response:
        q = request.query_params
        if q.get("client_id") != self.client_id or self.signed_in is None:
            return JSONResponse({"error": "unexpected"}, status_code=400)
        code = secrets.token_hex(10)
        self.codes[code] = (self.signed_in, q.get("redirect_uri", ""), q.get("code_challenge", ""))
        back = f"{q['redirect_uri']}?{urlencode({'code': code, 'state': q.get('state', '')})}"
        return RedirectResponse(back, status_code=302)

    async def access_token(self, request: Request) -> Response:
        form = dict(parse_qsl((await request.body()).decode()))
        if (
            form.get("client_id") != self.client_id
            or form.get("client_secret") != self.client_secret
        ):
            return JSONResponse(
                {
                    "error": "incorrect_client_credentials",
                    "error_description": "The client_id and/or client_secret passed are incorrect.",
                }
            )
        found = self.codes.pop(form.get("code", ""), None)
        if found is None or found[1] != form.get("redirect_uri"):
            return JSONResponse(
                {
                    "error": "bad_verification_code",
                    "error_description": "The code passed is incorrect or expired.",
                }
            )
        verifier = form.get("code_verifier", "")
        self.verifiers_seen.append(verifier)
        digest = hashlib.sha256(verifier.encode()).digest()
        if base64.urlsafe_b64encode(digest).rstrip(b"=").decode() != found[2]:
            return JSONResponse(
                {"error": "invalid_grant", "error_description": "The code_verifier does not match."}
            )
        token = f"gho_{secrets.token_hex(16)}"
        self.tokens[token] = found[0]
        return JSONResponse(
            {"access_token": token, "scope": "read:user,user:email", "token_type": "bearer"}
        )

    def _user_of(self, request: Request) -> GitHubUser | None:
        scheme, _, token = request.headers.get("authorization", "").partition(" ")
        return self.tokens.get(token) if scheme.lower() in ("bearer", "token") else None

    async def user(self, request: Request) -> Response:
        user = self._user_of(request)
        if user is None:
            return JSONResponse({"message": "Bad credentials", "status": "401"}, status_code=401)
        return JSONResponse(
            {"login": user.login, "id": user.id, "name": user.name, "email": None, "type": "User"}
        )

    async def emails(self, request: Request) -> Response:
        user = self._user_of(request)
        if user is None:
            return JSONResponse({"message": "Bad credentials", "status": "401"}, status_code=401)
        return JSONResponse(user.emails)


# ---- an OpenID Connect issuer that counts what it is asked and rotates its keys ---------------


@dataclass
class RotatingIssuer:
    """An OpenID Connect issuer on loopback that counts each request by path and can rotate its
    signing key, to see what Agora fetches on each sign-in. Its answers have the shapes of
    OpenID Connect Discovery 1.0 §3 (the metadata), RFC 7517 (the JWK Set), RFC 6749 §5.1 and
    OIDC Core §3.1.3.3 (the token answer, an RS256 ID token with ``kid``). The authorization
    endpoint signs in ``sub`` at once (no page) and redirects back with ``code`` and ``state``.
    The real mock (``oidc_provider``) cannot rotate keys, nor say how often it was asked."""

    sub: str = "rotating-sub"
    email: str = "rotating@people.example"
    client_id: str = "rotating-client"
    client_secret: str = "rotating-secret"
    hits: dict[str, int] = field(default_factory=dict)
    codes: dict[str, str] = field(default_factory=dict)  # code → the flow's nonce
    key: Any = None

    def __post_init__(self) -> None:
        self.rotate()

    def rotate(self) -> None:
        kid = secrets.token_hex(4)
        self.key = RSAKey.generate_key(2048, parameters={"kid": kid}, private=True)

    def app(self) -> Starlette:
        return Starlette(
            routes=[
                Route("/.well-known/openid-configuration", self.metadata, methods=["GET"]),
                Route("/authorize", self.authorize, methods=["GET"]),
                Route("/token", self.token, methods=["POST"]),
                Route("/jwks", self.jwks, methods=["GET"]),
            ]
        )

    def _count(self, request: Request) -> str:
        self.hits[request.url.path] = self.hits.get(request.url.path, 0) + 1
        return str(request.base_url).rstrip("/")

    async def metadata(self, request: Request) -> Response:
        base = self._count(request)
        return JSONResponse(
            {
                "issuer": base,
                "authorization_endpoint": f"{base}/authorize",
                "token_endpoint": f"{base}/token",
                "jwks_uri": f"{base}/jwks",
                "response_types_supported": ["code"],
                "subject_types_supported": ["public"],
                "id_token_signing_alg_values_supported": ["RS256"],
            }
        )

    async def authorize(self, request: Request) -> Response:
        self._count(request)
        q = request.query_params
        code = secrets.token_hex(10)
        self.codes[code] = q.get("nonce", "")
        back = f"{q['redirect_uri']}?{urlencode({'code': code, 'state': q.get('state', '')})}"
        return RedirectResponse(back, status_code=302)

    async def token(self, request: Request) -> Response:
        base = self._count(request)
        form = dict(parse_qsl((await request.body()).decode()))
        nonce = self.codes.pop(form.get("code", ""), None)
        if nonce is None or form.get("client_secret") != self.client_secret:
            return JSONResponse({"error": "invalid_grant"}, status_code=400)
        now = int(time.time())
        claims = {
            "iss": base, "sub": self.sub, "aud": self.client_id, "iat": now, "exp": now + 300,
            "nonce": nonce, "email": self.email, "email_verified": True, "name": "Rota Tion",
        }  # fmt: skip
        header = {"alg": "RS256", "kid": self.key.kid}
        return JSONResponse(
            {
                "access_token": secrets.token_hex(16),
                "token_type": "Bearer",
                "expires_in": 300,
                "id_token": jwt.encode(header, claims, self.key),
            }
        )

    async def jwks(self, request: Request) -> Response:
        self._count(request)
        return JSONResponse({"keys": [self.key.as_dict(private=False)]})
