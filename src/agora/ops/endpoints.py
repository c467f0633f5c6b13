from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import HTMLResponse, JSONResponse
from sqlalchemy import text

from agora.kit.families import bearer_router
from agora.ops.metrics import metrics

router = APIRouter(include_in_schema=False)
v1_router = bearer_router(tags=["meta"])


@router.get("/healthz")
async def healthz() -> dict[str, str]:
    """Liveness: the process answers."""
    return {"status": "ok"}


router.add_api_route("/metrics", metrics, methods=["GET"])


@router.get("/readyz")
async def readyz(request: Request) -> JSONResponse:
    """Readiness: the database answers, and every background service reports healthy."""
    checks: dict[str, Any] = {}
    ok = True
    try:
        async with request.app.state.db.engine.connect() as conn:
            await conn.execute(text("SELECT 1"))
        checks["database"] = "ok"
    except Exception as exc:  # report, never raise: this is what load balancers poll
        checks["database"] = f"unavailable: {type(exc).__name__}"
        ok = False
    for name, probe in getattr(request.app.state, "readiness", {}).items():
        healthy, detail = probe()
        checks[name] = detail
        ok = ok and healthy
    return JSONResponse(
        {"status": "ok" if ok else "unavailable", "checks": checks}, 200 if ok else 503
    )


@v1_router.get("/openapi", operation_id="getOpenApi", summary="OpenAPI 3.0 description")
async def openapi_document(request: Request) -> JSONResponse:
    """The OpenAPI 3.0.3 description of the API (no authentication)."""
    return JSONResponse(request.app.state.openapi_document())


@router.get("/docs")
async def docs(request: Request) -> HTMLResponse:
    """Swagger UI served from bundled assets: works with no internet."""
    return get_swagger_ui_html(
        openapi_url="/v1/openapi",
        title="Agora API",
        swagger_js_url="/docs/assets/swagger-ui-bundle.js",
        swagger_css_url="/docs/assets/swagger-ui.css",
        swagger_favicon_url="/docs/assets/favicon-32x32.png",
    )
