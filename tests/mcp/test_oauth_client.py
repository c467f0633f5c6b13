"""Issue 36: the MCP Python SDK's own OAuth client (``OAuthClientProvider``, unchanged) connects
to Agora's ``/mcp`` from scratch: the 401 names the protected-resource metadata, the SDK
discovers the authorization server, registers itself, sends a person (Chromium driven by
Playwright) to sign in and consent, exchanges the code with its PKCE verifier, calls tools,
refreshes its token; a revoked token is refused at once. A real server on loopback (the
``mcp_base`` fixture). Marked ``process`` (a browser)."""

from __future__ import annotations

import asyncio
import time
from urllib.parse import parse_qs, urlsplit

import httpx2
import pytest
from axe_playwright_python.async_playwright import Axe
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.auth import (
    AuthorizationCodeResult,
)

from agora.settings import Settings
from mcp import ClientSession
from tests.accounts.helpers import STRONG_PASSWORD
from tests.oauth.helpers import MemoryStorage, sdk_provider, sign_up_served
from tests.support.browser import ARGS, CHROMIUM
from tests.support.server import free_port

pytestmark = pytest.mark.process
TIMEOUT_MS = 20_000


async def test_the_sdk_oauth_client_connects_consents_calls_tools_and_refreshes(
    mcp_base: str, settings: Settings
) -> None:
    async_api = pytest.importorskip("playwright.async_api")
    email = "oauth-person@example.com"
    async with httpx2.AsyncClient(base_url=mcp_base, timeout=30) as http:
        await sign_up_served(http, settings, email)

    callback_port = free_port()
    redirect_uri = f"http://127.0.0.1:{callback_port}/callback"
    arrived: asyncio.Future[str] = asyncio.get_running_loop().create_future()
    storage = MemoryStorage()
    seen_pages: list[str] = []

    async with async_api.async_playwright() as p:
        browser = await p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS, headless=True)
        try:
            page = await browser.new_page()
            page.set_default_timeout(TIMEOUT_MS)

            async def at_callback(route: object) -> None:
                # The client's loopback redirect URI: the browser lands here with the code.
                url = route.request.url  # type: ignore[attr-defined]
                if not arrived.done():
                    arrived.set_result(url)
                await route.fulfill(status=200, body="Signed in: you can close this window")  # type: ignore[attr-defined]

            await page.route(f"http://127.0.0.1:{callback_port}/**", at_callback)

            async def redirect_handler(authorization_url: str) -> None:
                """The person: opens the link, signs in, reads the consent page, allows."""
                await page.goto(authorization_url)
                assert "/sign-in?next=" in page.url, (page.url, await page.inner_text("main"))
                await page.fill("#email", email)
                await page.fill("#password", STRONG_PASSWORD)
                await page.click("main button:has-text('Sign in')")
                await page.wait_for_selector("#consent")
                seen_pages.append(await page.inner_text("main"))
                audit = await Axe().run(page)  # the consent page is accessible (axe-core)
                assert audit.violations_count == 0, audit.generate_report()
                await page.click("#allow")

            async def callback_handler() -> AuthorizationCodeResult:
                url = await asyncio.wait_for(arrived, 30)
                query = {k: v[0] for k, v in parse_qs(urlsplit(url).query).items()}
                return AuthorizationCodeResult(code=query["code"], state=query.get("state"))

            handlers = (redirect_handler, callback_handler)
            provider = sdk_provider(mcp_base, "SDK test client", redirect_uri, storage, *handlers)
            async with (
                httpx2.AsyncClient(auth=provider, timeout=30) as http,
                streamable_http_client(f"{mcp_base}/mcp", http_client=http) as (read, write),
                ClientSession(read, write) as session,
            ):
                await session.initialize()
                tools = await session.list_tools()
                assert any(tool.name == "list_agents" for tool in tools.tools)
                listed = await session.call_tool("list_agents", {})
                assert not listed.is_error, listed.content

                assert storage.client is not None and storage.tokens is not None
                assert storage.client.client_id.startswith("agora_ocl_")
                first = storage.tokens
                assert first.access_token.startswith("agora_oat_") and first.refresh_token
                assert "SDK test client" in seen_pages[0] and "jobs:write" in seen_pages[0]

                # The access token runs out: the SDK refreshes it (rotation) and carries on.
                provider.context.token_expiry_time = time.time() - 1
                again = await session.call_tool("list_agents", {})
                assert not again.is_error, again.content
                second = storage.tokens
                assert second.access_token != first.access_token
                assert second.refresh_token != first.refresh_token
            async with httpx2.AsyncClient(base_url=mcp_base, timeout=30) as http:
                ping = {"jsonrpc": "2.0", "id": 1, "method": "ping"}
                headers = {
                    "Authorization": f"Bearer {second.access_token}",
                    "Accept": "application/json, text/event-stream",
                }
                assert (await http.post("/mcp", json=ping, headers=headers)).status_code == 200
                # The SDK registered without naming a method: a confidential client (HTTP Basic).
                assert storage.client.token_endpoint_auth_method == "client_secret_basic"
                assert storage.client.client_secret is not None
                revoked = await http.post(
                    "/oauth/revoke",
                    data={"token": second.access_token},
                    auth=(storage.client.client_id, storage.client.client_secret),
                )
                assert revoked.status_code == 200
                refused = await http.post("/mcp", json=ping, headers=headers)
                assert refused.status_code == 401  # at once: checked on every request
                assert "resource_metadata=" in refused.headers["www-authenticate"]
                # The REST API refuses it as well.
                me = await http.get(
                    "/v1/users/me", headers={"Authorization": headers["Authorization"]}
                )
                assert me.status_code == 401

            # The person's "Authorized apps" page: the app is listed; Revoke ends its refresh too.
            await page.goto(f"{mcp_base}/authorized-apps")
            assert "SDK test client" in await page.inner_text("#apps")
            await page.click("button[aria-label='Revoke SDK test client']")
            await page.wait_for_selector("#no-apps")
            async with httpx2.AsyncClient(base_url=mcp_base, timeout=30) as http:
                refresh = await http.post(
                    "/oauth/token",
                    data={"grant_type": "refresh_token", "refresh_token": second.refresh_token},
                    auth=(storage.client.client_id, storage.client.client_secret),
                )
                assert refresh.status_code == 400 and refresh.json()["error"] == "invalid_grant"
        finally:
            await browser.close()
