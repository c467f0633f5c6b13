"""The ASGI application: ``create_app(settings)``.

Middleware (outermost first): request id → access log → body limit → routes. Background services
(dispatcher, availability checks) are started by the lifespan from ``app.state.background``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import AsyncExitStack, asynccontextmanager
from typing import Any

from fastapi import Depends, FastAPI
from fastapi.staticfiles import StaticFiles
from swagger_ui_bundle import swagger_ui_path

from agora import __version__
from agora.agents.checker import AvailabilityChecker
from agora.api import v1_router
from agora.demo_agents import MOUNT_PREFIX, demo_host
from agora.dispatch.worker import Dispatcher, background_services
from agora.kit import errorhandlers
from agora.kit.accesslog import AccessLogMiddleware
from agora.kit.bodylimit import BodyLimitMiddleware, require_json_body
from agora.kit.db import Database
from agora.kit.metrics import MetricsMiddleware
from agora.kit.migrate import upgrade
from agora.kit.openapi import build_openapi
from agora.kit.ratelimit import build_rate_limiter, enforce_rate_limit
from agora.kit.requestid import RequestIdMiddleware
from agora.kit.textinput import reject_nul_in_query
from agora.mcp.server import build_mcp
from agora.mip003.client import Mip003Client
from agora.ops.endpoints import router as ops_router
from agora.settings import Settings

DESCRIPTION = """Agora: a marketplace and work tracker for software agents.

Every `/v1` path is also served under `/api/v1`. Authenticate with `Authorization: Bearer <key>`
or `x-api-key: <key>`; choose the workspace with `X-Workspace-Id` or `X-Organization-Slug`.
"""

Hook = Callable[[FastAPI], Awaitable[None]]


def create_app(
    settings: Settings,
    *,
    db: Database | None = None,
    migrate: bool | None = None,
    background: bool = True,
    startup_hooks: Sequence[Hook] = (),
) -> FastAPI:
    """Build the app. ``migrate`` defaults to True for the embedded SQLite database only;
    ``background=False`` starts no dispatcher or checkers (tests drive them directly)."""

    database = db or Database(settings.resolved_database_url)
    should_migrate = settings.is_sqlite if migrate is None else migrate

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        if should_migrate:
            await upgrade(database.engine)
        for hook in startup_hooks:
            await hook(app)
        async with AsyncExitStack() as stack:  # unwinds in reverse order, also on a failed start
            if db is None:
                stack.push_async_callback(database.dispose)
            stack.push_async_callback(app.state.agent_client.aclose)
            await app.state.mcp.start()  # the MCP session manager lives as long as the app
            stack.push_async_callback(app.state.mcp.stop)
            if background:
                for service in app.state.background:
                    await service.start()
                    stack.push_async_callback(service.stop)
            yield

    app = FastAPI(
        title="Agora API",
        version=__version__,
        description=DESCRIPTION,
        lifespan=lifespan,
        docs_url=None,
        redoc_url=None,
        openapi_url=None,
        dependencies=[
            Depends(enforce_rate_limit),
            Depends(require_json_body),
            Depends(reject_nul_in_query),
        ],
    )
    app.state.settings = settings
    app.state.db = database
    app.state.background = []
    app.state.readiness = {}
    app.state.agent_client = Mip003Client(timeout=settings.agent_timeout_seconds)
    if settings.run_dispatcher:  # the embedded default; `agora worker` processes scale it out
        for service in background_services(database, app.state.agent_client, settings):
            app.state.background.append(service)
            if isinstance(service, Dispatcher):
                app.state.readiness["dispatcher"] = service.readiness
    if settings.availability_check_seconds > 0:
        app.state.background.append(AvailabilityChecker(database, app.state.agent_client, settings))
    app.state.rate_limiter = build_rate_limiter(
        settings.rate_limit_public,
        settings.rate_limit_authenticated,
        settings.redis_url,
        settings.rate_limit_key_prefix,
    )

    errorhandlers.install(app)
    router = v1_router()
    app.include_router(router, prefix="/v1")
    app.include_router(router, prefix="/api/v1", include_in_schema=False)
    app.include_router(ops_router)
    app.state.mcp = build_mcp(database, settings, app.state.agent_client)
    app.router.routes.extend(app.state.mcp.routes)
    app.mount("/docs/assets", StaticFiles(directory=str(swagger_ui_path)), name="docs-assets")
    if settings.demo:  # the built-in MIP-003 demo agents, served by this process
        app.mount(MOUNT_PREFIX, demo_host(), name="demo-agents")

    cache: dict[str, Any] = {}

    def openapi_document() -> dict[str, Any]:
        if "doc" not in cache:
            public = settings.public_url.rstrip("/")
            cache["doc"] = build_openapi(
                app,
                servers=[
                    {"url": public, "description": "base_url"},
                    {"url": f"{public}/api", "description": "app_url (same routes under /api)"},
                ],
            )
        doc: dict[str, Any] = cache["doc"]
        return doc

    app.state.openapi_document = openapi_document

    app.add_middleware(BodyLimitMiddleware, max_bytes=settings.max_body_bytes)
    app.add_middleware(AccessLogMiddleware)
    app.add_middleware(RequestIdMiddleware)
    app.add_middleware(MetricsMiddleware)
    return app


def app_from_env() -> FastAPI:
    """Factory for ``uvicorn --factory agora.app:app_from_env`` (N API processes in production)."""
    from agora.kit.logging import configure_logging
    from agora.settings import get_settings

    settings = get_settings()
    configure_logging(settings.log_level, json=settings.json_logs)
    return create_app(settings)
