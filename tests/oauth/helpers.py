"""A client of Agora's authorization server through HTTP, as an MCP client or a CLI would be."""

from __future__ import annotations

import asyncio
import base64
import hashlib
import re
import secrets
import time
from collections.abc import Awaitable, Callable
from urllib.parse import parse_qs, urlsplit

import httpx2
from mcp.client.auth import OAuthClientProvider
from mcp.shared.auth import (
    AuthorizationCodeResult,
    OAuthClientInformationFull,
    OAuthClientMetadata,
    OAuthToken,
)
from pydantic import AnyUrl

from agora.settings import Settings
from tests.accounts.helpers import STRONG_PASSWORD, last_link, mails_to, sign_up_verified
from tests.conftest import TestUser

REDIRECT = "http://127.0.0.1:33418/callback"
_CSRF = re.compile(r'name="csrf" value="([^"]*)"')


def pkce() -> tuple[str, str]:
    verifier = secrets.token_urlsafe(48)
    challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest())
    return verifier, challenge.decode().rstrip("=")


def csrf_of(html: str) -> str:
    found = _CSRF.search(html)
    assert found, "no CSRF field in the page"
    return found.group(1)


def query_of(location: str) -> dict[str, str]:
    return {k: v[0] for k, v in parse_qs(urlsplit(location).query).items()}


async def register(
    client: httpx2.AsyncClient, *, method: str = "none", **extra: object
) -> dict[str, str]:
    body = {
        "client_name": "Test assistant",
        "redirect_uris": [REDIRECT],
        "token_endpoint_auth_method": method,
        "grant_types": ["authorization_code", "refresh_token"],
        **extra,
    }
    answer = await client.post("/oauth/register", json=body)
    assert answer.status_code == 201, answer.text
    data: dict[str, str] = answer.json()
    return data


def authorize_params(client_id: str, challenge: str, **over: str) -> dict[str, str]:
    return {
        "response_type": "code",
        "client_id": client_id,
        "redirect_uri": REDIRECT,
        "state": "st-123",
        "code_challenge": challenge,
        "code_challenge_method": "S256",
        "scope": "read jobs:write projects:write",
        **over,
    }


async def consent(
    client: httpx2.AsyncClient, params: dict[str, str], *, workspace: str | None = None
) -> httpx2.Response:
    """A signed-in client: the consent page, then "Allow"; returns the redirect to the client."""
    page = await client.get("/oauth/authorize", params=params)
    assert page.status_code == 200, page.text
    form = {**params, "csrf": csrf_of(page.text), "decision": "allow"}
    if workspace is None:
        found = re.search(r'<option value="([^"]+)" selected', page.text) or re.search(
            r'<option value="([^"]+)"', page.text
        )
        assert found
        workspace = found.group(1)
    form["workspace"] = workspace
    return await client.post("/oauth/authorize", data=form)


async def tokens_for(
    client: httpx2.AsyncClient, client_id: str, *, scope: str = "read jobs:write projects:write",
    workspace: str | None = None,
) -> dict[str, str]:  # fmt: skip
    verifier, challenge = pkce()
    answered = await consent(
        client, authorize_params(client_id, challenge, scope=scope), workspace=workspace
    )
    assert answered.status_code == 303, answered.text
    code = query_of(answered.headers["location"])["code"]
    token = await client.post(
        "/oauth/token",
        data={
            "grant_type": "authorization_code",
            "code": code,
            "redirect_uri": REDIRECT,
            "client_id": client_id,
            "code_verifier": verifier,
        },
    )
    assert token.status_code == 200, token.text
    data: dict[str, str] = token.json()
    return data


async def sign_up_served(http: httpx2.AsyncClient, settings: Settings, email: str) -> None:
    """An account with a password on a served Agora (it mails the confirmation after its
    commit, in its own thread: wait for it, at most 15 s)."""
    signed_up = await http.post(
        "/v1/auth/sign-up", json={"email": email, "password": STRONG_PASSWORD, "name": "Person"}
    )
    assert signed_up.status_code == 201, signed_up.text
    deadline = time.monotonic() + 15
    while not any("Confirm" in str(m["Subject"]) for m in mails_to(settings, email)):
        assert time.monotonic() < deadline, "no confirmation mail"
        await asyncio.sleep(0.05)
    _, token = last_link(settings, email, "Confirm")
    verified = await http.post("/v1/auth/verify-email", json={"token": token})
    assert verified.status_code == 200, verified.text


class MemoryStorage:
    """The MCP SDK's ``TokenStorage`` protocol, in memory (as its examples do)."""

    def __init__(self) -> None:
        self.tokens: OAuthToken | None = None
        self.client: OAuthClientInformationFull | None = None

    async def get_tokens(self) -> OAuthToken | None:
        return self.tokens

    async def set_tokens(self, tokens: OAuthToken) -> None:
        self.tokens = tokens

    async def get_client_info(self) -> OAuthClientInformationFull | None:
        return self.client

    async def set_client_info(self, client_info: OAuthClientInformationFull) -> None:
        self.client = client_info


async def member_of_new_organization(
    client: httpx2.AsyncClient, settings: Settings, owner: TestUser, email: str
) -> dict[str, str]:
    """``owner`` makes the organization "acme"; ``email`` signs up in ``client`` and joins it by
    invitation as a member. The organization (id, workspaceId …)."""
    csrf = await sign_up_verified(client, settings, email)
    org: dict[str, str] = (
        await client.post(
            "/v1/organizations", json={"name": "Acme", "slug": "acme"}, headers=owner.key_headers
        )
    ).json()["data"]
    link = (
        await client.post(
            f"/v1/organizations/{org['id']}/invitations",
            json={"role": "member"},
            headers=owner.key_headers,
        )
    ).json()["data"]
    accepted = await client.post(
        "/v1/invitations/accept", json={"token": link["token"]}, headers=csrf
    )
    assert accepted.status_code == 200, accepted.text
    return org


def sdk_provider(
    mcp_base: str,
    name: str,
    redirect_uri: str,
    storage: MemoryStorage,
    redirect_handler: Callable[[str], Awaitable[None]],
    callback_handler: Callable[[], Awaitable[AuthorizationCodeResult]],
) -> OAuthClientProvider:
    """The MCP SDK's own OAuth client for ``/mcp``, configured as a desktop client would be:
    a name, a loopback redirect URI, the code and refresh grants, and no scope."""
    return OAuthClientProvider(
        server_url=f"{mcp_base}/mcp",
        client_metadata=OAuthClientMetadata(
            client_name=name,
            redirect_uris=[AnyUrl(redirect_uri)],
            grant_types=["authorization_code", "refresh_token"],
            response_types=["code"],
        ),
        storage=storage,
        redirect_handler=redirect_handler,
        callback_handler=callback_handler,
    )


async def answer_device(
    client: httpx2.AsyncClient, user_code: str, decision: str
) -> httpx2.Response:
    """The signed-in person enters ``user_code`` on the device page and answers (allow/deny) in
    the workspace the page offers first."""
    page = await client.get("/oauth/device", params={"user_code": user_code})
    assert page.status_code == 200, page.text
    workspace = page.text.split('<option value="')[1].split('"')[0]
    return await client.post(
        "/oauth/device",
        data={"csrf": csrf_of(page.text), "user_code": user_code, "decision": decision,
              "workspace": workspace},
    )  # fmt: skip
