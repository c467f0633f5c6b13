"""A single-use token works once under concurrent use; the attempt counters are shared through
Redis when it is configured."""

from __future__ import annotations

import asyncio
import uuid

import httpx2
from fastapi import FastAPI

from agora.settings import Settings
from tests.accounts.helpers import last_link, sign_up_verified


def _browser(app: FastAPI) -> httpx2.AsyncClient:
    return httpx2.AsyncClient(transport=httpx2.ASGITransport(app=app), base_url="http://testserver")


async def test_a_magic_link_used_twice_at_once_signs_in_once(
    app: FastAPI, client: httpx2.AsyncClient, settings: Settings
) -> None:
    await sign_up_verified(client, settings, "race@example.com")
    assert (
        await client.post("/v1/auth/magic-link", json={"email": "race@example.com"})
    ).status_code == 202
    _, token = last_link(settings, "race@example.com", "sign-in link")
    browsers = [_browser(app) for _ in range(4)]
    try:
        answers = await asyncio.gather(
            *(b.post("/v1/auth/magic-link/sign-in", json={"token": token}) for b in browsers)
        )
    finally:
        for b in browsers:
            await b.aclose()
    assert sorted(a.status_code for a in answers) == [200, 400, 400, 400]


async def test_wrong_password_counts_live_in_redis_when_configured(
    app: FastAPI, client: httpx2.AsyncClient, settings: Settings, redis_url: str
) -> None:
    settings.redis_url = redis_url
    # Redis outlives the test
    settings.rate_limit = settings.with_changes(
        rate_limit_key_prefix=f"test-{uuid.uuid4().hex[:10]}"
    ).rate_limit
    app.state.attempt_limiter = None  # rebuilt from the settings on the next request
    email = f"redis-{uuid.uuid4().hex[:10]}@example.com"
    await sign_up_verified(client, settings, email)
    client.cookies.clear()
    statuses = [
        (
            await client.post(
                "/v1/auth/sign-in", json={"email": email, "password": f"wrong-password-{n}"}
            )
        ).status_code
        for n in range(20)
    ]
    assert statuses == [401] * 19 + [429]
    # A second app (another process) sharing the Redis sees the same count.
    other = app.state.attempt_limiter
    app.state.attempt_limiter = None
    refused = await client.post("/v1/auth/sign-in", json={"email": email, "password": "x" * 12})
    assert refused.status_code == 429
    assert app.state.attempt_limiter is not other
