"""The route index (kit/routing.py) picks the route FastAPI's own walk would pick, for every
route of the app, and leaves what has no full match (404, 405, slash redirects) to FastAPI."""

from __future__ import annotations

import re

import httpx2
from fastapi import FastAPI
from fastapi.routing import iter_route_contexts
from starlette.routing import Match

from agora.kit.routing import IndexedRouter


def _sample_paths(app: FastAPI) -> set[tuple[str, str]]:
    """(method, path) for every route of the app, parameters filled in."""
    samples = set()
    for context in iter_route_contexts(app.routes):
        path = context.path_format or context.path
        if not isinstance(path, str):
            continue
        concrete = re.sub(r"\{[^}]+\}", "0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b", path) or "/"
        for method in getattr(context, "methods", None) or {"GET"}:
            samples.add((method, concrete))
    return samples


def _first_full(routes: list, scope: dict) -> object | None:  # type: ignore[type-arg]
    for route in routes:
        if route.matches(dict(scope))[0] == Match.FULL:
            return route
    return None


def test_the_index_picks_the_route_fastapi_would(app: FastAPI) -> None:
    dispatch = app.router.middleware_stack
    assert isinstance(dispatch, IndexedRouter)
    index = dispatch.index()
    samples = _sample_paths(app)
    assert len(samples) > 200  # every /v1 and /api/v1 route, the pages, mounts
    for method, path in samples:
        scope = {"type": "http", "method": method, "path": path, "root_path": "", "headers": []}
        expected = _first_full(app.router.routes, scope)
        assert expected is not None, (method, path)
        chosen = _first_full(index.candidates(path), scope)
        assert chosen is expected, (method, path)


async def test_unmatched_requests_are_fastapis(client: httpx2.AsyncClient) -> None:
    assert (await client.get("/v1/no-such-thing")).status_code == 404
    assert (await client.get("/api/v1/no-such-thing")).status_code == 404
    assert (await client.delete("/v1/users/me")).status_code == 405
    assert (await client.get("/v1/agents")).status_code == 200  # public listing, indexed
    assert (await client.get("/api/v1/agents")).status_code == 200


async def test_liveness_is_answered_by_the_request_layer(client: httpx2.AsyncClient) -> None:
    got = await client.get("/healthz", headers={"X-Request-Id": "probe-1"})
    assert (got.status_code, got.json(), got.headers["x-request-id"]) == (
        200,
        {"status": "ok"},
        "probe-1",
    )
    head = await client.head("/healthz")
    assert head.status_code == 200 and head.content == b""
    assert len(head.headers["x-request-id"]) == 32


def test_path_parameters_and_mounts_are_wildcards() -> None:
    from fastapi import APIRouter
    from starlette.routing import Mount

    from agora.kit.routing import RouteIndex

    jobs, catch_all, static = APIRouter(), APIRouter(), Mount("/static", routes=[])
    jobs.add_api_route("/v1/jobs/{jobId}", lambda: None)
    catch_all.add_api_route("/{rest:path}", lambda: None)
    app = FastAPI()
    app.include_router(jobs)
    app.router.routes.append(static)
    app.include_router(catch_all)
    index = RouteIndex(list(app.router.routes))
    routes = app.router.routes
    assert index.candidates("/v1/jobs/1") == [routes[-3], routes[-1]]
    assert index.candidates("/static/app.css") == [routes[-2], routes[-1]]
    assert index.candidates("/elsewhere") == [routes[-1]]
