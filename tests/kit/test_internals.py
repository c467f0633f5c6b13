"""One test per assumption kit/internals.py makes about FastAPI, Starlette, SQLAlchemy and
httpcore2. An upgrade that breaks one fails here, by name — and nowhere else imports a private
name of those libraries."""

from __future__ import annotations

import ast
import uuid
from pathlib import Path
from typing import Any

import httpcore2
import httpx2
import pytest
from fastapi import APIRouter, FastAPI, Query, Request
from fastapi.routing import iter_route_contexts
from sqlalchemy import JSON, Column, MetaData, Table, Uuid, bindparam, insert, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection
from starlette.routing import Mount

import agora
from agora.kit import internals
from agora.kit.db import Database
from agora.kit.routing import install_route_index

SRC = Path(agora.__file__).parent
PINNED = ("fastapi", "starlette", "sqlalchemy", "httpx2", "httpcore2", "mcp", "pydantic")


def _nested_app() -> FastAPI:
    """Included routers inside included routers, a mount inside one, a plain route."""
    inner, outer = APIRouter(prefix="/inner"), APIRouter()
    inner.add_api_route("/items/{item_id}", lambda item_id: item_id)
    inner.routes.append(Mount("/files", routes=[]))
    outer.include_router(inner, prefix="/outer")
    outer.add_api_route("/ping", lambda: "pong")
    app = FastAPI()
    app.include_router(outer, prefix="/v1")
    app.add_api_route("/top", lambda: "top")
    app.mount("/static", FastAPI())
    return app


def _built_paths(route: Any) -> set[tuple[str | None, bool]]:
    """The public way: FastAPI builds every route and reports its path."""
    found = set()
    for context in iter_route_contexts([route]):
        mount = isinstance(context.original_route, Mount) or isinstance(context.route, Mount)
        path = context.path
        found.add((path if isinstance(path, str) else None, mount))
    return found


def test_route_paths_read_included_routers_as_fastapi_builds_them(app: FastAPI) -> None:
    for application in (_nested_app(), app):
        for route in application.router.routes:
            assert set(internals.route_paths(route)) == _built_paths(route), route
    nested = {p for r in _nested_app().router.routes for p in internals.route_paths(r)}
    assert {("/v1/outer/inner/items/{item_id}", False), ("/v1/outer/files", True)} <= nested


async def test_select_route_sets_the_scope_as_fastapis_router_does() -> None:
    def scope_of(request: Request, item_id: str) -> dict[str, Any]:
        scope = request.scope
        return {
            "item": item_id,
            "path_params": scope["path_params"],
            "router": scope["router"] is request.app.router,
            "route": scope["route"].path,
            "endpoint": scope["endpoint"].__name__,
        }

    answers = []
    for indexed in (False, True):
        router = APIRouter()
        router.add_api_route("/items/{item_id}", scope_of)
        app = FastAPI()
        app.include_router(router, prefix="/v1")
        if indexed:
            install_route_index(app)
        transport = httpx2.ASGITransport(app=app)
        async with httpx2.AsyncClient(transport=transport, base_url="http://t") as client:
            got = await client.get("/v1/items/7")
        assert got.status_code == 200
        answers.append(got.json())
    assert answers[0] == answers[1]
    assert answers[1]["path_params"] == {"item_id": "7"} and answers[1]["router"] is True


def test_get_route_path_leaves_out_the_root_path() -> None:
    scope = {"type": "http", "path": "/api/v1/jobs", "root_path": "/api"}
    assert internals.get_route_path(scope) == "/v1/jobs"


_T = Table(
    "t",
    MetaData(),
    Column("id", Uuid, primary_key=True),
    Column("data", JSON),
)


@pytest.mark.parametrize(
    ("dialect", "placeholder"),
    [(sqlite.dialect(), "?"), (postgresql.asyncpg.dialect(), "$1")],  # type: ignore[attr-defined]
)
def test_compile_for_driver_gives_the_drivers_sql_and_conversions(
    dialect: Any, placeholder: str
) -> None:
    statement = select(_T.c.id, _T.c.data.label("payload")).where(
        _T.c.id.in_(bindparam("ids", expanding=True)), _T.c.data.is_not(None)
    )
    ids = [uuid.uuid4(), uuid.uuid4()]
    driver = internals.compile_for_driver(statement, dialect, {"ids": ids})
    assert placeholder in driver.sql and "payload" in driver.sql
    assert driver.names == ("ids_1", "ids_2")
    assert driver.columns == ("id", "payload")
    assert driver.fixed == {}
    if dialect.name == "sqlite":  # UUIDs are stored as 32 hex digits, JSON as text
        bind = driver.binds[0]
        assert bind is not None and bind(ids[0]) == ids[0].hex
        id_result, json_result = driver.results
        assert id_result is not None and id_result(ids[0].hex) == ids[0]
        assert json_result is not None and json_result('{"a": 1}') == {"a": 1}
    table = Table("d", MetaData(), Column("id", Uuid, primary_key=True, default=uuid.uuid4))
    with pytest.raises(TypeError, match="give id a value"):
        internals.compile_for_driver(insert(table).values(), dialect, {})


async def test_driver_connection_is_the_drivers_own(db: Database) -> None:
    def kind(connection: Connection) -> str:
        return type(internals.driver_connection(connection)).__module__.split(".")[0]

    async with db.engine.connect() as conn:
        assert await conn.run_sync(kind) == ("aiosqlite" if db.is_sqlite else "asyncpg")


class _Refusing(httpcore2.AsyncNetworkBackend):
    async def connect_tcp(self, *args: Any, **kwargs: Any) -> Any:
        raise httpcore2.ConnectError("refused by the test's backend")


async def test_a_replaced_pool_carries_the_transports_requests() -> None:
    assert issubclass(internals.AutoBackend, httpcore2.AsyncNetworkBackend)
    transport = httpx2.AsyncHTTPTransport(trust_env=False)
    internals.replace_pool(transport, httpcore2.AsyncConnectionPool(network_backend=_Refusing()))
    async with httpx2.AsyncClient(transport=transport) as client:
        with pytest.raises(httpx2.ConnectError, match="test's backend"):
            await client.get("http://127.0.0.1:9/")


def _private_imports(tree: ast.AST) -> list[str]:
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            parts = node.module.split(".")
            if parts[0] not in PINNED:
                continue
            if any(p.startswith("_") for p in parts[1:]):
                found.append(node.module)
            found += [f"{node.module}.{a.name}" for a in node.names if a.name.startswith("_")]
        elif isinstance(node, ast.Import):
            found += [
                a.name
                for a in node.names
                if a.name.split(".")[0] in PINNED
                and any(p.startswith("_") for p in a.name.split(".")[1:])
            ]
    return found


def test_only_internals_imports_private_names_of_the_pinned_libraries() -> None:
    offenders = {}
    for path in SRC.rglob("*.py"):
        if path == SRC / "kit" / "internals.py":
            continue
        found = _private_imports(ast.parse(path.read_text()))
        if found:
            offenders[str(path.relative_to(SRC))] = found
    assert offenders == {}
    assert _private_imports(ast.parse((SRC / "kit" / "internals.py").read_text()))


def test_inclusion_key_is_shared_by_apps_and_moves_when_routes_are_added() -> None:
    from agora.kit.routing import RouteIndex

    router = APIRouter()
    router.add_api_route("/a", lambda: "a")
    apps = [FastAPI(), FastAPI()]
    for application in apps:
        application.include_router(router, prefix="/v1")
    first, second = (internals.inclusion_key(a.router.routes[-1]) for a in apps)
    assert first is not None and second is not None
    assert first[0] is second[0] is router and first[1:] == second[1:] == ("/v1", first[2])
    assert internals.inclusion_key(apps[0].router.routes[0]) is None  # a plain route
    router.add_api_route("/b", lambda: "b")
    later = internals.inclusion_key(apps[0].router.routes[-1])
    assert later is not None and later[2] != first[2]
    # Each app's index holds its own routes, and sees the route added later.
    for application in apps:
        index = RouteIndex(list(application.router.routes))
        assert index.candidates("/v1/b")[-1] is application.router.routes[-1]


def test_param_introspection_is_memoised_and_answers_as_before() -> None:
    from fastapi.dependencies import utils

    internals.memoise_param_introspection()
    internals.memoise_param_introspection()  # idempotent: wrapped once
    asked = utils.field_annotation_is_sequence
    assert getattr(asked, "memoised", False)
    assert asked(list[str] | None) is True
    assert asked(str | None) is False
    assert asked(int) is False

    # FastAPI's own request parsing reads a repeated query parameter as a list through it
    app = FastAPI()

    @app.get("/probe")
    async def probe(tag: list[str] | None = Query(None), one: str | None = None) -> Any:
        return {"tag": tag, "one": one}

    from starlette.testclient import TestClient

    with TestClient(app) as client:
        got = client.get("/probe", params=[("tag", "a"), ("tag", "b"), ("one", "x")]).json()
    assert got == {"tag": ["a", "b"], "one": "x"}


def test_mcp_connection_is_what_a_server_session_proxies() -> None:
    from types import SimpleNamespace

    from mcp.server.connection import Connection
    from mcp.server.session import ServerSession

    connection = SimpleNamespace(protocol_version="2025-06-18")
    session = ServerSession(SimpleNamespace(), connection)  # type: ignore[arg-type]
    assert internals.mcp_connection(session) is connection
    assert callable(Connection.send_tool_list_changed)  # what mcp/toolbox.py calls on it
