"""Issue 26, item 5: login CSRF. A cross-site form post to the sign-in or magic-link routes (web
and API) is refused before anything is spent, and a magic link followed by GET shows a confirm
button instead of signing the browser in."""

from __future__ import annotations

import httpx2
from sqlalchemy import func, select

from agora.kit.db import Database
from agora.models import BrowserSession
from agora.settings import Settings
from tests.accounts.helpers import STRONG_PASSWORD, last_link, sign_up_verified

ATTACKER = "mallory@example.com"
CROSS_SITE = (
    {"Origin": "https://evil.example"},
    {"Origin": "null"},
    {"Sec-Fetch-Site": "cross-site"},
    {"Sec-Fetch-Site": "same-site", "Origin": "https://sub.testserver"},
    {"Sec-Fetch-Site": "cross-site", "Origin": "http://testserver"},
)


async def _sessions(db: Database) -> int:
    async with db.transaction(write=False) as session:
        return int(await session.scalar(select(func.count()).select_from(BrowserSession)) or 0)


async def _signed_out(client: httpx2.AsyncClient) -> None:
    client.cookies.clear()
    assert (await client.get("/v1/auth/session")).status_code == 401


async def _magic_token(client: httpx2.AsyncClient, settings: Settings) -> str:
    asked = await client.post("/v1/auth/magic-link", json={"email": ATTACKER})
    assert asked.status_code == 202
    return last_link(settings, ATTACKER, "sign-in link")[1]


async def test_cross_site_sign_in_posts_are_refused(
    client: httpx2.AsyncClient, settings: Settings, db: Database
) -> None:
    await sign_up_verified(client, settings, ATTACKER)
    await _signed_out(client)
    before = await _sessions(db)
    credentials = {"email": ATTACKER, "password": STRONG_PASSWORD}
    for headers in CROSS_SITE:
        web = await client.post("/sign-in", data={"csrf": "", **credentials}, headers=headers)
        assert web.status_code == 403, (headers, web.text[:200])
        assert "set-cookie" not in web.headers
        api = await client.post("/v1/auth/sign-in", json=credentials, headers=headers)
        assert api.status_code == 403, (headers, api.text)
        assert "set-cookie" not in api.headers
        token = await _magic_token(client, settings)
        link = await client.post("/magic-link", data={"csrf": "", "token": token}, headers=headers)
        assert link.status_code == 403, (headers, link.text[:200])
        api_link = await client.post(
            "/v1/auth/magic-link/sign-in", json={"token": token}, headers=headers
        )
        assert api_link.status_code == 403, (headers, api_link.text)
        await _signed_out(client)
    assert await _sessions(db) == before  # nothing was signed in

    # The refused link was not spent: from this site it signs in.
    same_site = {"Origin": "http://testserver", "Sec-Fetch-Site": "same-origin"}
    link = await client.post("/magic-link", data={"csrf": "", "token": token}, headers=same_site)
    assert link.status_code == 303, link.text[:300]
    assert (await client.get("/v1/auth/session")).status_code == 200
    for headers in (same_site, {"Origin": "http://testserver"}, {"Sec-Fetch-Site": "none"}, {}):
        client.cookies.clear()
        web = await client.post("/sign-in", data={"csrf": "", **credentials}, headers=headers)
        assert web.status_code == 303, (headers, web.text[:300])
        client.cookies.clear()
        api = await client.post("/v1/auth/sign-in", json=credentials, headers=headers)
        assert api.status_code == 200, (headers, api.text)


async def test_a_magic_link_followed_by_get_shows_a_confirm_button(
    client: httpx2.AsyncClient, settings: Settings, db: Database
) -> None:
    await sign_up_verified(client, settings, ATTACKER)
    await _signed_out(client)
    token = await _magic_token(client, settings)
    before = await _sessions(db)
    followed = await client.get(f"/v1/auth/magic-link?token={token}")
    assert followed.status_code == 303
    assert "set-cookie" not in followed.headers
    assert followed.headers["location"] == f"http://testserver/magic-link?token={token}"
    assert (await client.get("/v1/auth/session")).status_code == 401
    assert await _sessions(db) == before
    page = await client.get(f"/magic-link?token={token}")
    assert page.status_code == 200
    assert 'method="post"' in page.text.lower() and 'action="/magic-link"' in page.text
    assert "set-cookie" not in page.headers
    # The button (a same-origin POST) signs in, once.
    signed = await client.post(
        "/magic-link",
        data={"csrf": "", "token": token},
        headers={"Origin": "http://testserver", "Sec-Fetch-Site": "same-origin"},
    )
    assert signed.status_code == 303
    assert (await client.get("/v1/auth/session")).status_code == 200
