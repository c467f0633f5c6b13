"""Redis unreachable (a loopback port nothing listens on): every account route still answers as
it would with Redis — sign-up, resend, sign-in (API and web), magic link, password reset — never
500; the attempt counts are kept in process (the budget still refuses), counted in
``agora_redis_fallback_total{use="attempts"}``; /readyz says 200 ``degraded``. Rate limits are off
here, so the attempt counts are Redis's only user (and /readyz still reports it)."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator

import httpx2
import pytest

from agora.kit.db import Database
from agora.settings import Settings
from tests.accounts.helpers import STRONG_PASSWORD, last_link
from tests.kit.test_degradation import serve
from tests.support.server import free_port


@pytest.fixture
def down_settings(settings: Settings) -> Settings:
    return settings.with_changes(
        redis_url=f"redis://127.0.0.1:{free_port()}/0",
        rate_limit_public="off",
        rate_limit_authenticated="off",
        rate_limit_failed_auth="off",
        auth_attempts_per_account="3/15minutes",
        metrics_token="metrics-secret",
    )


@pytest.fixture
async def redis_down(down_settings: Settings, db: Database) -> AsyncIterator[httpx2.AsyncClient]:
    async for c in serve(down_settings, db):
        yield c


def attempts_fallbacks(metrics_text: str) -> float:
    found = re.search(r'^agora_redis_fallback_total\{use="attempts"\} (\S+)$', metrics_text, re.M)
    return float(found.group(1)) if found else 0.0


async def test_account_routes_answer_without_redis(
    redis_down: httpx2.AsyncClient, down_settings: Settings
) -> None:
    c, settings = redis_down, down_settings
    metrics = {"authorization": "Bearer metrics-secret"}
    before = attempts_fallbacks((await c.get("/metrics", headers=metrics)).text)
    email = "noredis@example.com"
    signed_up = await c.post(
        "/v1/auth/sign-up", json={"email": email, "password": STRONG_PASSWORD, "name": "N"}
    )
    assert signed_up.status_code == 201, signed_up.text
    resent = await c.post("/v1/auth/verify-email/resend", json={"email": email})
    assert resent.status_code == 202, resent.text
    _, token = last_link(settings, email, "Confirm")
    assert (await c.post("/v1/auth/verify-email", json={"token": token})).status_code == 200
    signed_in = await c.post("/v1/auth/sign-in", json={"email": email, "password": STRONG_PASSWORD})
    assert signed_in.status_code == 200, signed_in.text
    c.cookies.clear()
    web = await c.post("/sign-in", data={"csrf": "", "email": email, "password": STRONG_PASSWORD})
    assert web.status_code == 303, web.text
    c.cookies.clear()
    asked = await c.post("/v1/auth/magic-link", json={"email": email})
    assert asked.status_code == 202, asked.text
    _, link = last_link(settings, email, "sign-in link")
    used = await c.post("/v1/auth/magic-link/sign-in", json={"token": link})
    assert used.status_code == 200, used.text
    c.cookies.clear()
    reset_asked = await c.post("/v1/auth/password-reset", json={"email": email})
    assert reset_asked.status_code == 202, reset_asked.text
    _, reset_token = last_link(settings, email, "Reset")
    reset = await c.post(
        "/v1/auth/password-reset/confirm",
        json={"token": reset_token, "password": "copper-meadow-lantern-58"},
    )
    assert reset.status_code == 200, reset.text
    # The budget still holds, in process: 3 wrong passwords, then 429 with Retry-After.
    wrong = [
        await c.post("/v1/auth/sign-in", json={"email": email, "password": "Wrong-horse-17"})
        for _ in range(4)
    ]
    assert [r.status_code for r in wrong][-1] == 429, [r.text for r in wrong]
    assert int(wrong[-1].headers["retry-after"]) >= 1
    web_wrong = await c.post(
        "/sign-in", data={"csrf": "", "email": email, "password": "Wrong-horse-17"}
    )
    assert web_wrong.status_code == 429
    after = attempts_fallbacks((await c.get("/metrics", headers=metrics)).text)
    assert after - before >= 10
    ready = await c.get("/readyz")
    assert ready.status_code == 200
    assert ready.json()["status"] == "degraded"
    assert ready.json()["checks"]["redis"].startswith("unavailable")
