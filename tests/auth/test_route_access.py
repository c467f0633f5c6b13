"""Issue 26, item 3: every route of the app declares who may call it, once (a permission through
``require``, any key, optional credentials, a browser session, or ``@public``), and a key
scoped to ``read`` gets 403 on every route that changes something (404 on the admin API, which
answers every non-admin key as a path no route matches: issue 43, item 8)."""

from __future__ import annotations

import uuid
from typing import Any

import httpx2
import pytest
from fastapi import FastAPI
from fastapi.dependencies.models import Dependant
from fastapi.routing import APIRoute, iter_route_contexts
from starlette.routing import Mount, Route

from agora.accounts import provisioning as service
from agora.accounts import repository as repo
from agora.auth.dependencies import ACCESS, BROWSER, PUBLIC
from agora.auth.principal import Permission
from agora.kit.db import Database
from tests.conftest import MakeUser

# Routes that are not FastAPI routes, each with how it is guarded.
NOT_API_ROUTES = {
    "/mcp": "MCP: its own middleware authenticates the API key (mcp/auth.py)",
    "/sse": "MCP over SSE: the same middleware",
    "/messages/": "MCP over SSE: the same middleware",
    "/docs/assets/{path}": "public: the bundled Swagger UI files",
    "/static/{path}": "public: the web app's static files",
    "/demo-agents/{path}": "the built-in demo agents (MIP-003 servers), public like any agent",
    "/a2a/agents/{agent_id}": "A2A JSON-RPC: the MCP middleware authenticates the OAuth token or "
    "API key (a2aserver/endpoints.py; 401 without: tests/a2a/test_hired_over_a2a.py)",
}


def _declared(dependant: Dependant, found: set[str], seen: set[int]) -> None:
    for dep in dependant.dependencies:
        access = getattr(dep.call, ACCESS, None)
        if access is not None:
            found.add(str(access))
        if id(dep) not in seen:
            seen.add(id(dep))
            _declared(dep, found, seen)


def access_of(route: APIRoute) -> set[str]:
    found: set[str] = set()
    endpoint_access = getattr(route.endpoint, ACCESS, None)
    if endpoint_access is not None:
        found.add(str(endpoint_access))
    _declared(route.dependant, found, set())
    return found


def _routes(app: FastAPI) -> list[tuple[str, set[str], Any]]:
    found = []
    for context in iter_route_contexts(app.routes):
        methods = set(context.methods or ())
        found.append((context.path_format or "", methods, context.original_route))
    return found


def test_every_route_declares_who_may_call_it(app: FastAPI) -> None:
    undeclared, twice, api_routes = [], [], 0
    for path, methods, route in _routes(app):
        if not isinstance(route, APIRoute):
            assert isinstance(route, Route | Mount), (path, route)
            assert path in NOT_API_ROUTES, f"{path}: a route of another kind, not declared here"
            continue
        api_routes += 1
        access = access_of(route)
        if not access:
            undeclared.append(f"{sorted(methods)} {path}")
        elif len(access) > 1:
            twice.append(f"{sorted(methods)} {path}: {sorted(access)}")
        elif path.startswith(("/v1/", "/api/v1/")):
            assert access != {BROWSER}, f"{path}: an API route reads only the browser session"
    assert undeclared == [], "routes without a declared access:\n" + "\n".join(undeclared)
    assert twice == [], "routes declaring their access twice:\n" + "\n".join(twice)
    assert api_routes > 150


def test_the_walk_sees_a_route_without_a_declaration() -> None:
    """The check above can fail: a bare route declares nothing."""
    bare = FastAPI()

    @bare.post("/x")
    async def x() -> dict[str, str]:
        return {}

    route = next(r for r in bare.routes if isinstance(r, APIRoute) and r.path == "/x")
    assert access_of(route) == set()


def _concrete(path: str) -> str:
    """The path with every parameter filled with a fresh id (the check comes before lookups)."""
    parts = []
    for part in path.split("/"):
        parts.append(str(uuid.uuid4()) if part.startswith("{") else part)
    return "/".join(parts)


@pytest.mark.parametrize("form", ["x-api-key", "bearer"])
async def test_a_read_key_gets_403_on_every_route_that_changes_something(
    app: FastAPI, client: httpx2.AsyncClient, db: Database, make_user: MakeUser, form: str
) -> None:
    user = await make_user()
    async with db.transaction() as session:
        row = await repo.user_by_id(session, user.user_id)
        assert row is not None
        key = await service.create_key(session, user=row, name="reader", scopes=["read"])
    headers = (
        {"x-api-key": key.plaintext}
        if form == "x-api-key"
        else {"Authorization": f"Bearer {key.plaintext}"}
    )
    checked, wrong = 0, []
    for path, methods, route in _routes(app):
        if not isinstance(route, APIRoute) or not path.startswith("/v1/"):
            continue
        if access_of(route) & {PUBLIC, BROWSER}:
            continue  # no key is involved: sign-in, sign-up, links (item 5 guards those)
        refused = 404 if access_of(route) == {Permission.ADMIN.value} else 403
        for method in sorted(methods - {"GET", "HEAD", "OPTIONS"}):
            response = await client.request(
                method, _concrete(path), json={}, headers=headers, timeout=10
            )
            checked += 1
            if response.status_code != refused:
                wrong.append(f"{method} {path}: {response.status_code} {response.text[:200]}")
    assert wrong == [], "a read key was not refused:\n" + "\n".join(wrong)
    assert checked >= 50
