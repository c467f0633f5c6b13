"""Issue 44.6: the MCP Python SDK's OAuth client (``mcp.client.auth.OAuthClientProvider``, 2.3.0,
unchanged and given no scope), connecting to a real served Agora's ``/mcp``, asks for the least
scopes the tool server needs — the 401's ``scope`` (RFC 6750 §3; the SDK's
``get_client_metadata_scopes`` takes it first, then the resource metadata's
``scopes_supported``) — never ``profile:write``, and gets a token with exactly those.

The person is a signed-in HTTP client of the same server: it opens the authorization URL the SDK
hands over, reads the consent page and allows (the browser version, with Chromium, is
tests/mcp/test_oauth_client.py)."""

from __future__ import annotations

import asyncio
import re
from urllib.parse import parse_qs, urlsplit

import httpx2
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.auth import AuthorizationCodeResult

from agora.settings import Settings
from mcp import ClientSession
from tests.accounts.helpers import sign_in
from tests.oauth.helpers import MemoryStorage, csrf_of, sdk_provider, sign_up_served

LEAST = "read jobs:write projects:write"
REDIRECT = "http://127.0.0.1:33419/callback"  # never called: the person's client stops at the 303


async def test_the_sdk_asks_for_the_least_scopes_and_gets_a_token(
    mcp_base: str, settings: Settings
) -> None:
    email = "least@example.com"
    asked: list[dict[str, str]] = []
    arrived: asyncio.Future[dict[str, str]] = asyncio.get_running_loop().create_future()
    async with httpx2.AsyncClient(base_url=mcp_base, timeout=30) as person:
        await sign_up_served(person, settings, email)
        await sign_in(person, email)

        async def redirect_handler(authorization_url: str) -> None:
            """The person: the consent page the SDK sends them to, then Allow."""
            query = {k: v[0] for k, v in parse_qs(urlsplit(authorization_url).query).items()}
            asked.append(query)
            page = await person.get(authorization_url)
            assert page.status_code == 200, page.text
            assert "profile:write" not in page.text
            workspace = re.search(r'<option value="([^"]+)"', page.text)
            assert workspace is not None
            form = {**query, "csrf": csrf_of(page.text), "decision": "allow"}
            answered = await person.post(
                "/oauth/authorize", data={**form, "workspace": workspace.group(1)}
            )
            assert answered.status_code == 303, answered.text
            back = urlsplit(answered.headers["location"])
            arrived.set_result({k: v[0] for k, v in parse_qs(back.query).items()})

        async def callback_handler() -> AuthorizationCodeResult:
            got = await asyncio.wait_for(arrived, 30)
            return AuthorizationCodeResult(code=got["code"], state=got.get("state"))

        storage = MemoryStorage()
        provider = sdk_provider(
            mcp_base, "Least scopes client", REDIRECT, storage, redirect_handler, callback_handler
        )
        async with (
            httpx2.AsyncClient(auth=provider, timeout=30) as http,
            streamable_http_client(f"{mcp_base}/mcp", http_client=http) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            listed = await session.call_tool("list_agents", {})
            assert not listed.is_error, listed.content

    assert [query["scope"] for query in asked] == [LEAST]
    assert storage.tokens is not None and storage.tokens.scope == LEAST
    assert storage.tokens.access_token.startswith("agora_oat_")
