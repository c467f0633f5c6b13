"""Rate limits keyed on the resolved identity: junk keys do not escape the public limit and are
throttled harder; one key has one budget whatever its spelling; /mcp and /sse are limited too."""

from __future__ import annotations

import secrets
from collections.abc import AsyncIterator

import httpx2
import pytest
from fastapi import FastAPI

from agora.app import create_app
from agora.kit.db import Database
from agora.settings import Settings
from tests.conftest import MakeUser


@pytest.fixture
async def limited(settings: Settings, db: Database) -> AsyncIterator[httpx2.AsyncClient]:
    strict = settings.with_changes(
        rate_limit_public="5/day", rate_limit_authenticated="6/day", rate_limit_failed_auth="3/day"
    )
    app: FastAPI = create_app(strict, db=db, migrate=False, background=False)
    async with app.router.lifespan_context(app):
        transport = httpx2.ASGITransport(app=app)
        async with httpx2.AsyncClient(transport=transport, base_url="http://testserver") as c:
            yield c


async def test_junk_keys_do_not_bypass_the_public_limit_and_are_throttled_harder(
    limited: httpx2.AsyncClient,
) -> None:
    junk = [
        (await limited.get("/v1/agents", headers={"x-api-key": secrets.token_hex(8)})).status_code
        for _ in range(5)
    ]
    assert junk[3:] == [429, 429]  # 3 failed authentications per address per minute
    assert set(junk[:3]) <= {200, 401}
    malformed = await limited.get("/v1/agents", headers={"authorization": "Basic x"})
    assert malformed.status_code == 429
    assert int(malformed.headers["retry-after"]) >= 1
    # Anonymous requests keep their own (public) budget.
    anonymous = [(await limited.get("/v1/agents")).status_code for _ in range(6)]
    assert anonymous == [200] * 5 + [429]


async def test_one_key_has_one_budget_whatever_its_spelling(
    limited: httpx2.AsyncClient, make_user: MakeUser
) -> None:
    user = await make_user()
    key = user.api_key
    spellings = [
        {"x-api-key": key},
        {"x-api-key": f"  {key} "},
        {"authorization": f"Bearer {key}"},
        {"authorization": f"bearer {key}"},
        {"authorization": f"BEARER   {key}"},
        {"authorization": f"Bearer {key}  "},
        {"x-api-key": key},
    ]
    codes = [(await limited.get("/v1/users/me", headers=h)).status_code for h in spellings]
    assert codes == [200] * 6 + [429], codes
    other = await make_user()
    assert (await limited.get("/v1/users/me", headers=other.key_headers)).status_code == 200


async def test_mcp_and_sse_are_rate_limited(limited: httpx2.AsyncClient) -> None:
    body = {"jsonrpc": "2.0", "id": 1, "method": "ping"}
    headers = {"accept": "application/json, text/event-stream"}
    codes = [(await limited.post("/mcp", json=body, headers=headers)).status_code for _ in range(6)]
    assert codes[:5] == [401] * 5  # anonymous: the public budget (then refused by auth)
    assert codes[5] == 429
    sse = await limited.get("/sse")
    assert sse.status_code == 429
    assert int(sse.headers["retry-after"]) >= 1
    assert sse.json()["error"]["code"] == -32029
