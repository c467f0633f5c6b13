"""The operator's plain routes: /metrics, /readyz, the OpenAPI document and its Swagger UI."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Request
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import HTMLResponse, JSONResponse, Response
from prometheus_client import CONTENT_TYPE_LATEST

from agora.auth.dependencies import SessionDep, SettingsDep, public
from agora.kit.families import bearer_router
from agora.kit.units import UnitOfWorkRoute
from agora.ops import metrics as scrape

READY_TIMEOUT_SECONDS = 2.0

router = APIRouter(include_in_schema=False, route_class=UnitOfWorkRoute)
v1_router = bearer_router(tags=["meta"])


@router.get("/metrics")
@public  # guarded by its own token, AGORA_METRICS_TOKEN (docs/security.md)
async def metrics(request: Request, settings: SettingsDep, session: SessionDep) -> Response:
    """Prometheus text: the process's counters and the database's gauges, read in the route's
    read unit (its session connects at its first statement: a refused scrape reads nothing)."""
    refused = scrape.refusal(settings, request.headers.get("authorization", ""))
    if refused is not None:
        return Response(refused, status_code=401, media_type="text/plain")
    text = await scrape.exposition(session)
    return Response(text, media_type=CONTENT_TYPE_LATEST)


@router.get("/readyz")
@public
async def readyz(request: Request) -> JSONResponse:
    """Readiness, one entry per dependency: ``database`` (SELECT 1 within 2 s), ``redis`` (PING,
    when configured), ``replica`` (when configured: its lag, measured at most every check
    interval), ``fanout`` (the process's LISTEN or Redis subscription, when it has one),
    ``dispatcher`` (when this process runs one: its loop is alive, its last round succeeded and
    the database answers). 503 when the database or the dispatcher is down; Redis, the replica
    or the fan-out down is ``degraded`` with 200: requests are still served (rate limits and
    attempt counts per process, reads on the primary, wake-ups by polling; kit/redisfallback.py,
    kit/replica.py, kit/fanout.py)."""
    checks: dict[str, Any] = {}
    ok, degraded = True, False
    try:
        async with asyncio.timeout(READY_TIMEOUT_SECONDS):
            await request.app.state.db.ping()
        checks["database"] = "ok"
    except Exception as exc:  # report, never raise: this is what load balancers poll
        checks["database"] = f"unavailable: {type(exc).__name__}"
        ok = False
    # One Redis serves the rate limits and the attempt counts; either asks it (PING).
    redis_ok: bool | None = None
    for user in ("rate_limiter", "attempt_limiter"):
        limiter = getattr(request.app.state, user, None)
        if redis_ok is None and limiter is not None:
            redis_ok = await limiter.redis_ok()
    if redis_ok is not None:
        checks["redis"] = (
            "ok" if redis_ok else "unavailable: rate limits and attempt counts are per process"
        )
        degraded = not redis_ok
    replica = request.app.state.db.replica
    fanout = request.app.state.fanout.readiness()
    for name, reported in (
        ("replica", await replica.readiness() if replica is not None else None),
        ("fanout", fanout),
    ):
        if reported is not None:
            healthy, checks[name] = reported
            degraded = degraded or not healthy
    for name, probe in getattr(request.app.state, "readiness", {}).items():
        healthy, detail = probe()
        if checks["database"] != "ok":
            healthy, detail = False, "unavailable: the database is unreachable"
        checks[name] = detail
        ok = ok and healthy
    status = "unavailable" if not ok else "degraded" if degraded else "ok"
    return JSONResponse({"status": status, "checks": checks}, 200 if ok else 503)


@v1_router.get("/openapi", operation_id="getOpenApi", summary="OpenAPI 3.0 description")
@public
async def openapi_document(request: Request) -> JSONResponse:
    """The OpenAPI 3.0.3 description of the API (no authentication)."""
    return JSONResponse(request.app.state.openapi_document())


@router.get("/docs")
@public
async def docs(request: Request) -> HTMLResponse:
    """Swagger UI served from bundled assets: works with no internet."""
    return get_swagger_ui_html(
        openapi_url="/v1/openapi",
        title="Agora API",
        swagger_js_url="/docs/assets/swagger-ui-bundle.js",
        swagger_css_url="/docs/assets/swagger-ui.css",
        swagger_favicon_url="/docs/assets/favicon-32x32.png",
    )
