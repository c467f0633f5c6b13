"""The ASGI application: ``create_app(settings)``.

Middleware (outermost first): the MCP rate limit → one layer for request id, metrics, access
log and body limit (kit/observe.py) → routes. Background services
(dispatcher, availability checks) are started by the lifespan from ``app.state.background``.
"""

from __future__ import annotations

import gc
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import AbstractAsyncContextManager, AsyncExitStack, asynccontextmanager
from dataclasses import dataclass
from typing import Any

from fastapi import Depends, FastAPI
from fastapi.staticfiles import StaticFiles
from starlette.applications import Starlette
from starlette.routing import Mount
from starlette.types import ASGIApp
from swagger_ui_bundle import swagger_ui_path

from agora import __version__
from agora.a2a.client import client_for as a2a_client_for
from agora.a2aserver.endpoints import router as a2a_card_router
from agora.a2aserver.endpoints import rpc_routes as a2a_rpc_routes
from agora.api import LAYOUT, PAGES, ROUTERS, TOOLBOX, TOOLS
from agora.auth.service import key_id_resolver
from agora.files.content import UPLOAD_FRAMING_BYTES
from agora.jobs.stream import JobStreams, StreamLimits
from agora.kit import errorhandlers, passwords, wire
from agora.kit.attempts import AttemptLimiter
from agora.kit.background import stop_all
from agora.kit.db import Database
from agora.kit.guards import request_checks
from agora.kit.httpserver import trust_proxies
from agora.kit.internals import memoise_param_introspection
from agora.kit.migrate import upgrade
from agora.kit.observe import ObserveMiddleware
from agora.kit.openapi import build_openapi
from agora.kit.ratelimit import RateLimitMiddleware, build_rate_limiter
from agora.kit.replica import ReplicaOptions
from agora.kit.routing import build_route_index, install_route_index
from agora.kit.telemetry import Telemetry
from agora.kit.telemetry import use as use_telemetry
from agora.mcp.server import build_mcp
from agora.mip003.client import client_for
from agora.oauth.endpoints import router as oauth_router
from agora.oauth.pages import router as oauth_pages_router
from agora.ops.endpoints import router as ops_router
from agora.payments.backend import payment_backend
from agora.payments.embedded import NODE_PREFIX, node_token
from agora.sandbox import MOUNT_PREFIX, demo_host
from agora.sandbox.payment_node import local_node
from agora.sandbox.seller import demo_seller
from agora.settings import Settings
from agora.web.render import STATIC_DIR, error_page
from agora.web.shell import SignInFirst, sign_in_first
from agora.workers import background_services, process_fanout, readiness

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
    telemetry: Telemetry | None = None,
) -> FastAPI:
    """Build the app. ``migrate`` defaults to True for the embedded SQLite database only;
    ``background=False`` starts no dispatcher or checkers (tests drive them directly);
    ``telemetry``: OpenTelemetry providers (default: from ``AGORA_OTEL_ENDPOINT``, off unset)."""
    database = db or Database(
        settings.resolved_database_url,
        pool=settings.database.pool(),
        replica=replica_options(settings),
    )
    telemetry = telemetry or Telemetry.from_environment(settings.otel_endpoint)
    passwords.use_profile(settings.password_hash_profile)
    app = FastAPI(
        title="Agora API",
        version=__version__,
        description=DESCRIPTION,
        lifespan=_lifespan(
            database,
            dispose=db is None,
            migrate=settings.is_sqlite if migrate is None else migrate,
            background=background,
            startup_hooks=startup_hooks,
            telemetry=telemetry,
        ),
        docs_url=None,
        redoc_url=None,
        openapi_url=None,
        dependencies=[Depends(request_checks)],  # one solve per request (kit/guards.py)
    )
    app.state.settings = settings
    app.state.layout = LAYOUT  # what the web app's header shows (web/shell.py)
    app.state.db = database
    stand_ins = StandIns.of(settings)
    _state(app, settings, database, stand_ins)
    _routes(app, settings, database, stand_ins)
    app.state.openapi_document = _openapi_document(app, settings)
    _middleware(app, settings)
    if telemetry.enabled:  # outermost: the request's span covers every layer
        from opentelemetry.instrumentation.fastapi import FastAPIInstrumentor

        FastAPIInstrumentor.instrument_app(
            app,
            tracer_provider=telemetry.tracer_provider,
            meter_provider=telemetry.meter_provider,
            excluded_urls="/healthz,/metrics",
        )
    install_route_index(app)
    memoise_param_introspection()
    if settings.wire_check:
        wire.CHECK = True
    return app


def replica_options(settings: Settings) -> ReplicaOptions | None:
    """The read replica's options (docs/operations.md, "Read replica"), when one is set."""
    replica = settings.replica
    if replica.resolved_url is None:
        return None
    return ReplicaOptions(
        url=replica.resolved_url,
        max_lag_seconds=replica.max_lag_seconds,
        check_seconds=replica.check_seconds,
        read_your_writes_seconds=replica.read_your_writes_seconds,
        redis_url=settings.redis_url,
        key_prefix=settings.rate_limit.key_prefix,
    )


def _lifespan(
    database: Database,
    *,
    dispose: bool,
    migrate: bool,
    background: bool,
    startup_hooks: Sequence[Hook],
    telemetry: Telemetry,
) -> Callable[[FastAPI], AbstractAsyncContextManager[None]]:
    """Migrate (the embedded database), run the startup hooks, start the MCP session manager and
    the background services; on the way out, stop them in reverse order."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        if migrate:
            await upgrade(database.engine)
        for hook in startup_hooks:
            await hook(app)
        async with AsyncExitStack() as stack:  # unwinds in reverse order, also on a failed start
            if telemetry.enabled:
                stack.callback(trace_process(database, telemetry))
            if dispose:
                stack.push_async_callback(database.dispose)
            stack.push_async_callback(app.state.agent_client.aclose)
            stack.push_async_callback(app.state.a2a_client.aclose)
            await app.state.mcp.start()  # the MCP session manager lives as long as the app
            stack.push_async_callback(app.state.mcp.stop)
            stack.push_async_callback(app.state.fanout.stop)  # its receiver starts lazily
            if background:
                started: list[Any] = []
                stack.push_async_callback(stop_all, started)
                for service in app.state.background:
                    await service.start()
                    started.append(service)
            yield

    return lifespan


def trace_process(database: Database, telemetry: Telemetry) -> Callable[[], None]:
    """This process's telemetry on (the dispatcher's spans) and a span per SQL statement of the
    engine; what turns both off again, flushing what is left. The app's lifespan and
    ``agora worker`` call it."""
    from opentelemetry.instrumentation.sqlalchemy import SQLAlchemyInstrumentor

    use_telemetry(telemetry)
    instrumentor = SQLAlchemyInstrumentor()
    instrumentor.instrument(
        # 0.66b2 declares SQLAlchemy < 2.1; its engine events are unchanged in 2.1 (the tests'
        # trace of a hire shows its statements: tests/jobs/test_tracing.py)
        skip_dep_check=True,
        engine=database.engine.sync_engine,
        tracer_provider=telemetry.tracer_provider,
        meter_provider=telemetry.meter_provider,
    )

    def off() -> None:
        instrumentor.uninstrument()
        use_telemetry(Telemetry())
        telemetry.shutdown()

    return off


@dataclass(frozen=True)
class StandIns:
    """The outside world this process serves itself (agora.sandbox): the local payment node
    (docs/payments.md) when embedded, the demo agents when the demo is on. Requests to them stay
    in-process (``local``: path prefix → app), so the outbound guard needs no exemption for them
    (kit/outbound.py, "in-process routes"); Agora's buyer client and the paid demo agent (a
    seller) reach the node the same way."""

    node: ASGIApp | None
    demo_agents: ASGIApp | None
    local: dict[str, Any]

    @classmethod
    def of(cls, settings: Settings) -> StandIns:
        local: dict[str, Any] = {}
        node = None
        if settings.payments.node_embedded:
            node = local_node(
                node_token(settings), chain_delay_ms=settings.payments.node_chain_delay_ms
            )[1]
            local[NODE_PREFIX] = Starlette(routes=[Mount(NODE_PREFIX, app=node)])
        demo_agents = demo_host(demo_seller(settings, local=local)) if settings.demo else None
        if demo_agents is not None:
            local[MOUNT_PREFIX] = demo_route(demo_agents)
        return cls(node, demo_agents, local)


def _state(app: FastAPI, settings: Settings, database: Database, stand_ins: StandIns) -> None:
    """What requests share: live streams, the agent client, the background services, the rate
    and attempt limiters."""
    app.state.fanout = process_fanout(
        database, settings, dispatching=settings.dispatch.enabled, serving=True
    )
    app.state.job_streams = JobStreams(
        database,
        StreamLimits(
            fallback_seconds=settings.streams.fallback_seconds,
            max_streams=settings.streams.max,
            max_per_key=settings.streams.max_per_key,
            max_per_user=settings.streams.max_per_user,
            max_per_address=settings.streams.max_per_address,
        ),
        # job events, the bell's unread count (notifications/bell.py) and a person's MCP toolbox
        # (mcp/toolbox.py)
        app.state.fanout,
    )
    app.state.agent_client = client_for(settings, local=stand_ins.local or None)
    app.state.a2a_client = a2a_client_for(  # A2A agents (a2a/, docs/a2a.md)
        settings.dispatch.agent_timeout_seconds, settings.outbound_allow
    )
    # The dispatcher and its companions run here by default (the embedded default); `agora
    # worker` processes scale them out (workers.py).
    node_route = {NODE_PREFIX: stand_ins.local[NODE_PREFIX]} if stand_ins.node else None
    app.state.background = background_services(
        database,
        app.state.agent_client,
        settings,
        dispatching=settings.dispatch.enabled,
        serving=True,
        payments=payment_backend(settings, local=node_route) if settings.dispatch.enabled else None,
        fanout=app.state.fanout,
    )
    app.state.readiness = readiness(app.state.background)
    app.state.rate_limiter = build_rate_limiter(
        settings.rate_limit.public,
        settings.rate_limit.authenticated,
        settings.redis_url,
        settings.rate_limit.key_prefix,
        settings.rate_limit.failed_auth,
    )
    if app.state.rate_limiter is not None:
        app.state.rate_limiter.resolver = key_id_resolver(database)
    # Sign-in, reset and magic-link attempts (accounts); in process while Redis is down.
    app.state.attempt_limiter = AttemptLimiter(
        settings.redis_url, f"{settings.rate_limit.key_prefix}-attempts"
    )


def _routes(app: FastAPI, settings: Settings, database: Database, stand_ins: StandIns) -> None:
    """Every door: the REST routers (api.ROUTERS, under /v1 and /api/v1), MCP (api.TOOLS), OAuth,
    the web app's pages (api.PAGES), static files and the stand-ins' mounts."""
    errorhandlers.install(app)
    # /healthz is answered by the request's layer (kit/observe.py); /metrics and /readyz here.
    app.include_router(ops_router)
    # Each domain's router directly under /v1 (and again under /api/v1): the route index
    # (kit/routing.py) then tries a request against its own domain's routes only.
    for prefix, in_schema in (("/v1", True), ("/api/v1", False)):
        for domain_router in ROUTERS:
            app.include_router(domain_router, prefix=prefix, include_in_schema=in_schema)
    app.state.mcp = build_mcp(
        database, settings, app.state.agent_client, TOOLS, TOOLBOX, app.state.job_streams.start
    )
    app.router.routes.extend(app.state.mcp.routes)
    # A2A: each listed agent's Agent Card and JSON-RPC endpoint (a2aserver/, docs/a2a.md)
    app.include_router(a2a_card_router)
    app.router.routes.extend(a2a_rpc_routes(database, settings, app.state.job_streams.start))
    app.mount("/docs/assets", StaticFiles(directory=str(swagger_ui_path)), name="docs-assets")
    if stand_ins.node is not None:  # the local payment node (docs/payments.md)
        app.mount(NODE_PREFIX, stand_ins.node, name="payment-node")
    app.include_router(oauth_router)  # OAuth 2.1 for MCP clients and tools (oauth/)
    app.include_router(oauth_pages_router)  # its consent, device and authorized-apps pages
    for page_router in PAGES:  # the web app's pages (docs/web.md)
        app.include_router(page_router)
    app.mount("/static", StaticFiles(directory=str(STATIC_DIR)), name="web-static")
    app.state.html_error_page = error_page  # errors outside /v1 and /api render as pages
    app.add_exception_handler(SignInFirst, sign_in_first)  # a page that needs a person: 303
    if stand_ins.demo_agents is not None:  # the built-in MIP-003 demo agents, in this process
        app.mount(MOUNT_PREFIX, stand_ins.demo_agents, name="demo-agents")


def _openapi_document(app: FastAPI, settings: Settings) -> Callable[[], dict[str, Any]]:
    """``GET /v1/openapi``'s document, built once on first use."""
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

    return openapi_document


def _middleware(app: FastAPI, settings: Settings) -> None:
    """One layer for request id, body limit, metrics and access log (kit/observe.py); the MCP
    endpoints' rate limit outside it; outermost, the client address and scheme from trusted
    proxies only (kit/httpserver.py)."""
    # Uploads stream to storage with their own limit (a file plus its multipart framing).
    upload_limit = settings.files.max_bytes + UPLOAD_FRAMING_BYTES
    app.add_middleware(
        ObserveMiddleware,
        max_body_bytes=settings.http.max_body_bytes,
        body_limits={f"{prefix}/files": upload_limit for prefix in ("/v1", "/api/v1")},
    )
    app.add_middleware(RateLimitMiddleware)
    trust_proxies(app, settings.http.trusted_proxies)


def demo_route(agents: Any) -> Starlette:
    """The demo host under ``MOUNT_PREFIX``, as the in-process target of the agent client."""
    return Starlette(routes=[Mount(MOUNT_PREFIX, app=agents)])


async def freeze_startup_objects(app: FastAPI) -> None:
    """A server process's last startup hook: build the route index and every route (building a
    route resolves its dependencies: a quarter second for all, which the first requests would
    pay) and register the MCP tools (another quarter second), then move what
    startup built (modules, the app, its routes, schemas and compiled statements) out of the
    garbage collector's sight. A full collection otherwise walks all of it, a pause of tens of
    milliseconds that lands on some request's latency (the p99: docs/performance.md). Server
    processes only; tests build many apps and let them go."""
    build_route_index(app)
    app.state.mcp.register_tools()
    gc.collect()
    gc.freeze()


def app_from_env() -> FastAPI:
    """Factory for ``uvicorn --factory agora.app:app_from_env`` (N API processes in production)."""
    from agora.kit.logging import configure_logging
    from agora.settings import get_settings

    settings = get_settings()
    configure_logging(settings.log_level, json=settings.json_logs)
    return create_app(settings, startup_hooks=(freeze_startup_objects,))
