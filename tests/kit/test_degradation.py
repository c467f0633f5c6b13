"""Dependencies down (a port nothing listens on): Redis → requests still served, rate limits fall
back to an in-process limiter (counted in /metrics, reported by /readyz as degraded);
PostgreSQL → 503 with Retry-After in each endpoint family's shape, REST and MCP, and /readyz
says so for the database and the dispatcher."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path

import httpx2
import pytest
from fastapi import FastAPI

from agora.app import create_app
from agora.kit.db import Database
from agora.settings import Settings
from tests.conftest import MakeUser
from tests.support.server import free_port

MCP_HEADERS = {"accept": "application/json, text/event-stream", "content-type": "application/json"}
INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "t", "version": "1"},
    },
}


async def serve(settings: Settings, db: Database | None) -> AsyncIterator[httpx2.AsyncClient]:
    app: FastAPI = create_app(settings, db=db, migrate=False, background=False)
    async with app.router.lifespan_context(app):
        transport = httpx2.ASGITransport(app=app)
        async with httpx2.AsyncClient(transport=transport, base_url="http://testserver") as c:
            yield c


@pytest.fixture
async def redis_down(settings: Settings, db: Database) -> AsyncIterator[httpx2.AsyncClient]:
    down = settings.with_changes(
        redis_url=f"redis://127.0.0.1:{free_port()}/0",
        rate_limit_public="5/day",
        rate_limit_authenticated="5/day",
        metrics_token="metrics-secret",
    )
    async for c in serve(down, db):
        yield c


def fallback_count(metrics_text: str) -> float:
    match = re.search(r"^agora_rate_limit_fallback_total (\S+)$", metrics_text, re.M)
    assert match, "the fallback counter is exported"
    return float(match.group(1))


async def test_redis_down_serves_requests_with_in_process_limits(
    redis_down: httpx2.AsyncClient, make_user: MakeUser
) -> None:
    auth = {"authorization": "Bearer metrics-secret"}
    before = fallback_count((await redis_down.get("/metrics", headers=auth)).text)
    codes = [(await redis_down.get("/v1/agents")).status_code for _ in range(7)]
    assert codes == [200] * 5 + [429, 429]  # the budget still holds, per process
    user = await make_user()
    me = await redis_down.get("/v1/users/me", headers=user.key_headers)
    assert me.status_code == 200, me.text
    assert me.headers["x-ratelimit-remaining"] == "4"
    after = fallback_count((await redis_down.get("/metrics", headers=auth)).text)
    assert after - before >= 8
    ready = await redis_down.get("/readyz")
    assert ready.status_code == 200
    body = ready.json()
    assert body["status"] == "degraded"
    assert body["checks"]["database"] == "ok"
    assert body["checks"]["redis"].startswith("unavailable")


async def test_redis_up_is_reported_ok(settings: Settings, db: Database, redis_url: str) -> None:
    up = settings.with_changes(redis_url=redis_url, rate_limit_public="100/day")
    async for c in serve(up, db):
        ready = (await c.get("/readyz")).json()
        assert ready["status"] == "ok"
        assert ready["checks"]["redis"] == "ok"


@pytest.fixture
async def postgres_down(tmp_path: Path) -> AsyncIterator[httpx2.AsyncClient]:
    settings = Settings(
        database_url=f"postgresql+asyncpg://postgres@127.0.0.1:{free_port()}/agora",
        data_dir=tmp_path,
        secret_key="test-secret-key",
        public_url="http://testserver",
        rate_limit_public="100/day",
        rate_limit_authenticated="100/day",
        rate_limit_failed_auth="100/day",
        run_dispatcher=True,
        demo=False,
    )
    async for c in serve(settings, None):
        yield c


async def test_postgres_down_answers_503_with_retry_after_in_each_shape(
    postgres_down: httpx2.AsyncClient,
) -> None:
    key = "agora_sk_" + "x" * 40
    simple = await postgres_down.get("/v1/users/me", headers={"x-api-key": key})
    assert simple.status_code == 503, simple.text
    assert simple.headers["retry-after"] == "5"
    assert simple.json()["code"] == "503"  # key family: Simple shape
    detailed = await postgres_down.get("/v1/history", headers={"authorization": f"Bearer {key}"})
    assert detailed.status_code == 503, detailed.text
    assert detailed.headers["retry-after"] == "5"
    assert detailed.json()["meta"]["path"] == "/v1/history"  # bearer family: Detailed shape
    anonymous = await postgres_down.get("/v1/agents")
    assert anonymous.status_code == 503, anonymous.text
    mcp = await postgres_down.post(
        "/mcp", json=INITIALIZE, headers={**MCP_HEADERS, "x-api-key": key}
    )
    assert mcp.status_code == 503, mcp.text
    assert mcp.headers["retry-after"] == "5"
    assert "database" in mcp.json()["error"]["message"]
    ready = await postgres_down.get("/readyz")
    assert ready.status_code == 503
    checks = ready.json()["checks"]
    assert checks["database"].startswith("unavailable")
    assert checks["dispatcher"].startswith("unavailable")
