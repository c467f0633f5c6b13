"""Route matching by path prefix: the app's routes are tried only where they can match.

FastAPI matches a request by asking each top-level route in turn, and an included router by
asking each of its routes, twice (once to match, once to handle). With twenty-odd domain
routers under ``/v1`` and again under ``/api/v1``, a request to a late domain walked a hundred
routes before its own (a tenth of a history page's CPU: docs/performance.md).

``install_route_index(app)`` puts an index in front of the app's router: the top-level routes
grouped by the first two literal segments their paths can start with (``/v1/jobs/{jobId}`` →
``v1``, ``jobs``; a parameter or a mount's tail is a wildcard there). A request is matched
against its group only, in the app's order, so the first full match is the one FastAPI's own
walk would find (the routes left out cannot match the path at all). Anything else — no full
match (404, 405, the trailing-slash redirect), lifespan, websockets — goes to FastAPI's router
as before. ``app.routes`` is not changed: OpenAPI, ``url_path_for`` and tests see what they saw.

Building the index reads paths only (FastAPI builds an included router's routes lazily; the
index does not make it build them), and its work is shared by every app built from the same
routers — a test suite builds hundreds (docs/testing.md).
"""

from __future__ import annotations

import functools
import weakref
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from fastapi import FastAPI
from fastapi.routing import iter_route_contexts
from starlette.routing import BaseRoute, Match
from starlette.types import ASGIApp, Receive, Scope, Send

# FastAPI's own steps on a full match, reused so that a route matched here is handled exactly
# as FastAPI's router would handle it, and the paths of included routers read without building
# their routes (kit/internals.py: the version is pinned, each assumption tested).
from agora.kit.internals import get_route_path, inclusion_key, route_paths, select_route

WILDCARD = "*"
END = ""  # the path has no segment there (``/healthz`` has no second segment)


def _literal(segment: str) -> str:
    return WILDCARD if "{" in segment else segment


def route_prefixes(route: BaseRoute) -> set[tuple[str, str]]:
    """The (first, second) segments of every path ``route`` can match; WILDCARD where any.
    Cheap: an included router's routes are read, not built (``internals.route_paths``)."""
    keys: set[tuple[str, str]] = set()
    for path, mount in route_paths(route):
        if path is None:
            return {(WILDCARD, WILDCARD)}  # a route we cannot read: tried for every path
        segments = path.strip("/").split("/") if path.strip("/") else []
        if segments and ":path}" in segments[0]:  # "/{rest:path}" takes any path at all
            keys.add((WILDCARD, WILDCARD))
            continue
        first = _literal(segments[0]) if segments else END
        if len(segments) >= 2:
            second = _literal(segments[1])
        else:
            second = WILDCARD if mount or first == END else END
        if first == END:
            first = WILDCARD if mount else END
        keys.add((first, second))
    return keys


def request_prefix(path: str) -> tuple[str, str]:
    segments = path.lstrip("/").split("/", 2)
    first = segments[0]
    second = segments[1] if len(segments) > 1 else END
    return first, second


@dataclass
class RouteIndex:
    """The app's top-level routes by the prefixes they can match (built from ``routes``)."""

    routes: Sequence[BaseRoute]
    by_prefix: dict[tuple[str, str], list[BaseRoute]] = field(default_factory=dict)
    by_first: dict[str, list[BaseRoute]] = field(default_factory=dict)
    anywhere: list[BaseRoute] = field(default_factory=list)

    def __post_init__(self) -> None:
        layout = _layout(tuple(_shared_prefixes(route) for route in self.routes))
        routes = self.routes
        for pair, positions in layout.by_prefix.items():
            self.by_prefix[pair] = [routes[i] for i in positions]
        for first, positions in layout.by_first.items():
            self.by_first[first] = [routes[i] for i in positions]
        self.anywhere = [routes[i] for i in layout.anywhere]

    def candidates(self, path: str) -> list[BaseRoute]:
        """The routes that can match ``path``, in the app's order (a superset is harmless; a
        route left out must be one that cannot match)."""
        first, second = request_prefix(path)
        found = self.by_prefix.get((first, second))
        if found is None:
            found = self.by_first.get(first, self.anywhere)
        return found


@dataclass(frozen=True)
class _Layout:
    """An index by route positions: the same for every app with the same routes' prefixes."""

    by_prefix: dict[tuple[str, str], tuple[int, ...]]
    by_first: dict[str, tuple[int, ...]]
    anywhere: tuple[int, ...]


@functools.lru_cache(maxsize=16)
def _layout(keyed: tuple[frozenset[tuple[str, str]], ...]) -> _Layout:
    literal_pairs = {key for keys in keyed for key in keys if WILDCARD not in key}
    by_prefix = {
        (first, second): tuple(i for i, keys in enumerate(keyed) if _may_match(keys, first, second))
        for first, second in literal_pairs
    }
    firsts = {first for keys in keyed for first, _ in keys if first != WILDCARD}
    by_first = {
        first: tuple(i for i, keys in enumerate(keyed) if _may_match(keys, first))
        for first in firsts
    }
    anywhere = tuple(i for i, keys in enumerate(keyed) if _may_match(keys))
    return _Layout(by_prefix, by_first, anywhere)


# An included router's prefixes, by (prefix, routes' version), for as long as the router lives:
# every app (every test) includes the same domain routers. By id (routers are not hashable),
# with a weak reference that tells a router from a later one at the same address.
Keys = frozenset[tuple[str, str]]
_INCLUDED: dict[int, tuple[weakref.ref[Any], dict[tuple[str, int], Keys]]] = {}


def _shared_prefixes(route: BaseRoute) -> Keys:
    key = inclusion_key(route)
    if key is None:
        return frozenset(route_prefixes(route))
    router, prefix, version = key
    entry = _INCLUDED.get(id(router))
    if entry is None or entry[0]() is not router:
        entry = _INCLUDED[id(router)] = (weakref.ref(router), {})
    known = entry[1]
    found = known.get((prefix, version))
    if found is None:
        found = known[(prefix, version)] = frozenset(route_prefixes(route))
    return found


def _may_match(
    keys: frozenset[tuple[str, str]], first: str | None = None, second: str | None = None
) -> bool:
    """Whether a route with these keys can match a path starting with ``first``/``second``
    (None: a segment that no route names, which only a wildcard takes)."""
    return any(
        key_first in (WILDCARD, first) and (second is None or key_second in (WILDCARD, second))
        for key_first, key_second in keys
    )


class IndexedRouter:
    """The app router's entry point (``router.middleware_stack``) with the index in front."""

    def __init__(self, app: FastAPI, fallback: ASGIApp) -> None:
        self.app = app
        self.fallback = fallback
        self._index: RouteIndex | None = None
        self._built_for: tuple[int, ...] = ()

    def index(self) -> RouteIndex:
        routes = self.app.router.routes
        signature = tuple(id(route) for route in routes)
        if self._index is None or signature != self._built_for:  # routes added after startup
            self._index, self._built_for = RouteIndex(list(routes)), signature
        return self._index

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            router = self.app.router
            for route in self.index().candidates(get_route_path(scope)):
                match, child_scope = route.matches(scope)
                if match == Match.FULL:
                    select_route(router, scope, route, child_scope)
                    await route.handle(scope, receive, send)
                    return
        await self.fallback(scope, receive, send)


def install_route_index(app: FastAPI) -> None:
    """Match the app's requests through ``IndexedRouter`` (call once, after the routes)."""
    app.router.middleware_stack = IndexedRouter(app, app.router.middleware_stack)


def build_route_index(app: FastAPI) -> None:
    """Build the index and every route now (a server's startup) rather than on the first
    requests: FastAPI builds an included router's routes when one is first asked to match,
    resolving each endpoint's dependencies (a quarter second for the app). Tests skip this and
    build only the routes they call."""
    dispatch = app.router.middleware_stack
    assert isinstance(dispatch, IndexedRouter), "install_route_index(app) first"
    dispatch.index()
    for _ in iter_route_contexts(app.router.routes):
        pass
