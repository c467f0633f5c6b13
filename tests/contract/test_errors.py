"""Error plumbing: every status in the family's shape, request ids, limits."""

from __future__ import annotations

import httpx2

from tests.conftest import MakeUser


async def test_unknown_route_is_404_detailed(client: httpx2.AsyncClient) -> None:
    response = await client.get("/v1/no-such-thing")
    assert response.status_code == 404
    body = response.json()
    assert body["error"] == "Not Found"
    assert set(body["meta"]) == {"timestamp", "requestId", "path", "method"}
    assert body["meta"]["path"] == "/v1/no-such-thing"
    assert body["meta"]["requestId"] == response.headers["x-request-id"]


async def test_wrong_method_is_405_in_the_routes_family(client: httpx2.AsyncClient) -> None:
    response = await client.delete("/v1/users/me")
    assert response.status_code == 405
    assert response.json()["code"] == "405"


async def test_body_over_the_limit_is_413(client: httpx2.AsyncClient, make_user: MakeUser) -> None:
    user = await make_user()
    big = b'{"name": "' + b"x" * 1_100_000 + b'"}'
    response = await client.patch(
        "/v1/users/me",
        content=big,
        headers={**user.key_headers, "content-type": "application/json"},
    )
    assert response.status_code == 413
    assert response.json()["code"] == "413"


async def test_non_json_body_is_415(client: httpx2.AsyncClient, make_user: MakeUser) -> None:
    user = await make_user()
    response = await client.patch(
        "/v1/users/me",
        content=b"name=x",
        headers={**user.key_headers, "content-type": "application/x-www-form-urlencoded"},
    )
    assert response.status_code == 415
    assert response.json()["code"] == "415"


async def test_request_id_is_echoed_or_generated(client: httpx2.AsyncClient) -> None:
    echoed = await client.get("/healthz", headers={"X-Request-Id": "abc-123"})
    assert echoed.headers["x-request-id"] == "abc-123"
    hostile = await client.get("/healthz", headers={"X-Request-Id": "bad id\twith junk"})
    assert hostile.headers["x-request-id"] != "bad id\twith junk"
    assert len(hostile.headers["x-request-id"]) == 32


async def test_health_and_readiness(client: httpx2.AsyncClient) -> None:
    assert (await client.get("/healthz")).json() == {"status": "ok"}
    ready = await client.get("/readyz")
    assert ready.status_code == 200
    assert ready.json()["checks"]["database"] == "ok"
