"""/metrics in Prometheus text format, with route templates and database gauges."""

from __future__ import annotations

import httpx2

from tests.conftest import MakeUser


async def test_metrics_count_requests_by_route_template_and_read_the_ledger(
    client: httpx2.AsyncClient, make_user: MakeUser, app: object
) -> None:
    app.state.settings.metrics = app.state.settings.with_changes(metrics_public=True).metrics  # type: ignore[attr-defined]
    user = await make_user(credits=5_000_000)
    await client.get("/v1/users/me", headers=user.key_headers)
    await client.get("/v1/users/me")
    response = await client.get("/metrics")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/plain")
    text = response.text
    assert 'agora_http_requests_total{method="GET",route="/v1/users/me",status="200"}' in text
    assert 'agora_http_requests_total{method="GET",route="/v1/users/me",status="401"}' in text
    assert 'agora_ledger_credits{kind="grant"} 5.0' in text
    assert 'agora_ledger_credits{kind="balance"} 5.0' in text
    assert "agora_http_request_duration_seconds_bucket" in text


async def test_metrics_token_when_configured(client: httpx2.AsyncClient, app: object) -> None:
    app.state.settings.metrics = app.state.settings.with_changes(metrics_token="s3cret").metrics  # type: ignore[attr-defined]
    assert (await client.get("/metrics")).status_code == 401
    ok = await client.get("/metrics", headers={"Authorization": "Bearer s3cret"})
    assert ok.status_code == 200


async def test_metrics_are_closed_by_default(client: httpx2.AsyncClient, app: object) -> None:
    closed = await client.get("/metrics")
    assert closed.status_code == 401
    assert "agora_ledger" not in closed.text
    app.state.settings.metrics = app.state.settings.with_changes(metrics_public=True).metrics  # type: ignore[attr-defined]
    assert (await client.get("/metrics")).status_code == 200
