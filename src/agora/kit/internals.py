"""Every private piece of FastAPI, Starlette, SQLAlchemy and httpcore2 that Agora relies on, in
one place, each with its test (``tests/kit/test_internals.py``).

The performance kit (kit/routing.py, kit/reads.py, kit/writes.py) and the outbound guard reach
past the libraries' public surface for things the public surface does not offer. Their versions
are pinned (requirements.lock); when an upgrade moves or changes one of these, the import here
or its test in ``tests/kit/test_internals.py`` fails, and nothing else should need to change.
No other module imports a private name of these libraries (``tests/test_layers.py``).

FastAPI 0.165 / Starlette (routing):
- ``route_paths(route)``: the paths a top-level route can match, read from an included router's
  routes and its inclusion prefix, without building the effective routes (FastAPI builds those
  lazily, and building one resolves its endpoint's dependencies: a quarter second for the whole
  app, paid by whoever asks first). ``iter_route_contexts`` is the public way; it builds them.
- ``select_route(router, scope, route, child_scope)``: what FastAPI's router does with a route
  that matched fully (form limits, the child scope, telemetry), so a route found by the index
  is handled exactly as FastAPI's own walk would handle it.
- ``inclusion_key(route)``: what an included router's paths depend on (the router, the
  prefix, its routes' version), so apps built from the same routers share the work.
- ``get_route_path(scope)``: Starlette's path within the app (root path removed).
- ``memoise_param_introspection()``: FastAPI's request parsing asks
  ``field_annotation_is_sequence(annotation)`` twice of every query parameter of every request
  (typing introspection: 25 of the 64 µs that reading an agent listing's ten parameters took);
  the answer depends on the annotation alone, so it is kept per annotation.

SQLAlchemy 2.1 (kit/reads.py, kit/writes.py: statements compiled once, run on the driver):
- ``compile_for_driver(statement, dialect, params)``: the driver's SQL, its parameters' order
  and bind processors (the compiler's ``_bind_processors``, ``construct_expanded_state``), the
  result columns and their processors (``_result_columns``, ``_cached_result_processor``).
- ``driver_connection(connection)``: the driver's connection under a SQLAlchemy connection.

MCP 2.3 (mcp/toolbox.py):
- ``mcp_connection(session)``: the client's connection behind a request's ``ServerSession``
  (a proxy built per request): what lives as long as an SSE client stays connected, and sends
  it ``notifications/tools/list_changed`` (``Connection.send_tool_list_changed``, public).

httpx2 / httpcore2 (kit/outbound.py):
- ``AutoBackend``: the network backend the outbound guard wraps to check each address.
- ``replace_pool(transport, pool)``: an ``AsyncHTTPTransport`` sending through our pool.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import httpcore2
import httpx2
from fastapi.dependencies import utils as fastapi_dependency_utils
from fastapi.routing import (
    _apply_router_form_limits,
    _FrontendRouteGroup,
    _IncludedRouter,
    _RouterIncludeContext,
    _update_scope,
)
from fastapi.telemetry._api import _route_selected
from httpcore2._backends.auto import AutoBackend
from sqlalchemy.engine import Dialect
from sqlalchemy.sql.compiler import SQLCompiler
from starlette._utils import get_route_path
from starlette.routing import BaseRoute, Host, Mount
from starlette.types import Scope

__all__ = [
    "AutoBackend",
    "DriverStatement",
    "compile_for_driver",
    "driver_connection",
    "get_route_path",
    "inclusion_key",
    "mcp_connection",
    "replace_pool",
    "route_paths",
    "select_route",
]

# ---- FastAPI / Starlette: routing ---------------------------------------------------------


def route_paths(route: BaseRoute) -> Iterator[tuple[str | None, bool]]:
    """(path, is a mount) for every route ``route`` stands for: itself, or each route of an
    included router under the inclusion's prefix (nested inclusions too). ``None``: a route
    whose paths cannot be read this way (a Host, the frontend routes): it may match anything."""
    if isinstance(route, _IncludedRouter):
        yield from _included_paths(route.original_router.routes, route.include_context)
        if route.original_router._low_priority_routes:
            yield None, False
        return
    path = getattr(route, "path", None)
    if isinstance(route, Host) or not isinstance(path, str):
        yield None, False
        return
    yield path, isinstance(route, Mount)


def _included_paths(
    routes: list[BaseRoute], context: _RouterIncludeContext
) -> Iterator[tuple[str | None, bool]]:
    for route in routes:
        if isinstance(route, _IncludedRouter):
            yield from _included_paths(
                route.original_router.routes, context.combine(route.include_context)
            )
            if route.original_router._low_priority_routes:
                yield None, False
        elif isinstance(route, (Host, _FrontendRouteGroup)) or not isinstance(
            getattr(route, "path", None), str
        ):
            yield None, False
        elif isinstance(route, Mount):  # FastAPI mounts it at prefix + path, without the "/"
            yield context.path_for(route).rstrip("/"), True
        else:
            yield context.path_for(route), False  # type: ignore[arg-type]


def inclusion_key(route: BaseRoute) -> tuple[Any, str, int] | None:
    """For an included router: (the router included, the inclusion's prefix, the version of its
    routes — FastAPI bumps it when a route is added, nested inclusions too); else None. Two
    apps including the same router under the same prefix have the same paths there."""
    if not isinstance(route, _IncludedRouter):
        return None
    router = route.original_router
    return router, route.include_context.prefix, router._get_routes_version()


def select_route(router: Any, scope: Scope, route: BaseRoute, child_scope: Scope) -> None:
    """What FastAPI's ``APIRouter`` does on a full match before handing the request to
    ``route.handle`` (``APIRouter.app``)."""
    _apply_router_form_limits(scope, router.form_limits)
    scope.setdefault("router", router)
    _update_scope(scope, child_scope)
    _route_selected(
        scope=scope, path=getattr(route, "path_format", None), mount=isinstance(route, Mount)
    )


def memoise_param_introspection() -> None:
    """Keep ``fastapi.dependencies.utils.field_annotation_is_sequence``'s answers per annotation
    (idempotent; an unhashable annotation is asked as before)."""
    original = fastapi_dependency_utils.field_annotation_is_sequence  # type: ignore[attr-defined]
    if getattr(original, "memoised", False):
        return
    remembered = functools.lru_cache(maxsize=1024)(original)

    def memoised(annotation: Any) -> bool:
        try:
            return remembered(annotation)
        except TypeError:  # unhashable: not kept
            return original(annotation)

    memoised.memoised = True  # type: ignore[attr-defined]
    fastapi_dependency_utils.field_annotation_is_sequence = memoised  # type: ignore[attr-defined]


# ---- SQLAlchemy: compiled statements -------------------------------------------------------

Processor = Callable[[Any], Any] | None


@dataclass(frozen=True)
class DriverStatement:
    """A Core statement as the driver runs it (``compile_for_driver``)."""

    sql: str
    names: tuple[str, ...]  # the bound parameters in the driver's order
    binds: tuple[Processor, ...]  # each parameter's bind processor (None: the value as it is)
    fixed: dict[str, Any]  # the values the statement carries itself (a LIKE pattern …)
    columns: tuple[str, ...]  # the result's column keys, in order
    results: tuple[Processor, ...]  # each result column's processor


def compile_for_driver(statement: Any, dialect: Dialect, params: dict[str, Any]) -> DriverStatement:
    """Compile ``statement`` for ``dialect`` into the driver's SQL, its parameters' order and
    bind processors and its result columns' processors: the conversions SQLAlchemy's execution
    applies (UUIDs, times, JSON, booleans). A list parameter ("IN") is rendered as one
    placeholder per value of ``params``' list. A column whose value SQLAlchemy would compute at
    execution (a Python ``default``/``onupdate`` the statement leaves out) is refused: the
    driver would not compute it."""
    compiler = statement.compile(dialect=dialect)
    assert isinstance(compiler, SQLCompiler)
    unset = [*compiler.insert_prefetch, *compiler.update_prefetch]
    if unset:
        columns = ", ".join(column.key for column in unset)
        raise TypeError(f"give {columns} a value in the statement (a Python default)")
    expanded = compiler.construct_expanded_state(params)
    names = tuple(expanded.positiontup or ())
    processors = {**compiler._bind_processors, **expanded.processors}
    expanding = {name for name, bind in compiler.binds.items() if bind.expanding}
    fixed = {  # neither given nor the element of a given list ("ids" → "ids_1", "ids_2" …)
        name: value
        for name, value in expanded.parameters.items()
        if name not in params and name.rpartition("_")[0] not in expanding
    }
    result = compiler._result_columns
    return DriverStatement(
        sql=expanded.statement,
        names=names,
        binds=tuple(processors.get(name) for name in names),  # type: ignore[misc]
        fixed=fixed,
        columns=tuple(column.keyname for column in result),
        results=tuple(_result_processor(column.type, dialect) for column in result),
    )


def _result_processor(type_: Any, dialect: Dialect) -> Processor:
    """``type_``'s result processor on ``dialect`` (cached by SQLAlchemy per dialect)."""
    try:
        processor: Processor = type_._cached_result_processor(dialect, None)
    except TypeError:
        # asyncpg's numeric processors choose by the column's type code, known only from a
        # cursor; the driver already returns float for float columns (the one kind we have).
        return None
    return processor


def driver_connection(connection: Any) -> Any:
    """The DBAPI driver's own connection (asyncpg's, aiosqlite's) under a SQLAlchemy
    ``Connection`` that holds one."""
    return connection.connection.driver_connection


# ---- httpcore2 --------------------------------------------------------------------------------


def replace_pool(transport: httpx2.AsyncHTTPTransport, pool: httpcore2.AsyncConnectionPool) -> None:
    """Make ``transport`` send through ``pool`` (httpx2 offers no way to give it one)."""
    transport._pool = pool


# ---- MCP: a request's session → its connection ---------------------------------------------


def mcp_connection(session: Any) -> Any:
    """The ``mcp.server.connection.Connection`` a ``ServerSession`` proxies (``_connection``)."""
    return session._connection
