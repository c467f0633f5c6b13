"""Rate limits: per client address on public routes, per key on authenticated ones; Redis shares
one budget between processes."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import httpx2
import pytest
from fastapi import FastAPI

from agora.app import create_app
from agora.kit.db import Database
from agora.settings import Settings
from tests.conftest import MakeUser
from tests.support.server import agora_env, running_server


@pytest.fixture
async def limited_client(settings: Settings, db: Database) -> AsyncIterator[httpx2.AsyncClient]:
    limited = settings.with_changes(rate_limit_public="10/day", rate_limit_authenticated="5/day")
    app: FastAPI = create_app(limited, db=db, migrate=False, background=False)
    async with app.router.lifespan_context(app):
        transport = httpx2.ASGITransport(app=app)
        async with httpx2.AsyncClient(transport=transport, base_url="http://testserver") as c:
            yield c


async def test_public_listing_gets_429_with_retry_after(
    limited_client: httpx2.AsyncClient,
) -> None:
    statuses: list[int] = []
    last: httpx2.Response | None = None
    for _ in range(200):
        last = await limited_client.get("/v1/agents")
        statuses.append(last.status_code)
    assert statuses[:10] == [200] * 10
    assert set(statuses[10:]) == {429}
    assert last is not None
    assert int(last.headers["retry-after"]) >= 1
    assert last.headers["x-ratelimit-limit"] == "10"
    assert last.headers["x-ratelimit-remaining"] == "0"
    assert last.headers["ratelimit-policy"] == "10;w=86400"
    body = last.json()
    assert body["error"] == "Too Many Requests"
    assert body["meta"]["path"] == "/v1/agents"  # the bearer family's Detailed shape
    first_ok = await limited_client.get("/healthz")  # outside /v1: never limited
    assert first_ok.status_code == 200


async def test_each_key_has_its_own_budget(
    limited_client: httpx2.AsyncClient, make_user: MakeUser
) -> None:
    one, two = await make_user(), await make_user()
    codes = [
        (await limited_client.get("/v1/users/me", headers=one.key_headers)).status_code
        for _ in range(6)
    ]
    assert codes == [200] * 5 + [429]
    limited = await limited_client.get("/v1/users/me", headers=one.key_headers)
    assert limited.json()["code"] == "429"  # the key family's Simple shape
    other = await limited_client.get("/v1/users/me", headers=two.key_headers)
    assert other.status_code == 200
    assert other.headers["x-ratelimit-remaining"] == "4"


@pytest.mark.process  # two real server processes: make prove
def test_two_processes_share_one_budget_through_redis(tmp_path: Path, redis_url: str) -> None:
    env = agora_env(
        tmp_path,
        AGORA_DEMO="false",
        AGORA_REDIS_URL=redis_url,
        AGORA_RATE_LIMIT_PUBLIC="10/day",
        AGORA_RATE_LIMIT_KEY_PREFIX=f"agora-rl-test-{uuid.uuid4().hex}",
    )
    with running_server(env) as first, running_server(env) as second:
        codes = [httpx2.get(f"{first}/v1/agents", timeout=10).status_code for _ in range(6)]
        codes += [httpx2.get(f"{second}/v1/agents", timeout=10).status_code for _ in range(6)]
    assert codes == [200] * 10 + [429, 429]
