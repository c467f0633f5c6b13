"""The one request lifecycle (kit/units.py), kept true on the source tree and the app:

- only the route (``UnitOfWorkRoute``) opens a request's unit of work: every API route of the
  app is one, no dependency is a generator (the old ``yield`` sessions), and ``.transaction(``
  is called only where the list below says why (workers, the CLI, after-commit bookkeeping …);
- the old side doors are gone: ``require_apart``, ``get_principal_apart``, ``ReaderApart``,
  ``AdminApart``, ``LinkSessionDep``;
- a route that calls out declares CALLS_OUT and takes the unit; a GET that writes declares
  WRITE_ON_GET.
"""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

from fastapi import FastAPI
from fastapi.dependencies.models import Dependant
from fastapi.routing import APIRoute, iter_route_contexts

import agora
from agora.kit.units import Mode, UnitOfWorkRoute, mode_of, request_unit

SRC = Path(agora.__file__).parent

# Files that may open a transaction themselves, and why (none of them is a request's work).
TRANSACTIONS_ALLOWED: dict[str, str] = {
    "kit/db.py": "defines Database.transaction",
    "kit/units.py": "the request lifecycle: the route's (and a tool call's) unit of work",
    "kit/livestreams.py": "a live stream's reads between waits, after its route has answered",
    "cli/": "one transaction per command",
    "dispatch/worker.py": "the dispatcher: claim, commit, call the agent, write anew",
    "notifications/worker.py": "the webhook sender's rounds",
    "files/worker.py": "the output collector's rounds: claim, commit, fetch, write anew",
    "schedules/worker.py": "the scheduler's rounds: claim with a lease, then one short write each",
    "ops/worker.py": "background deletes of expired rows: one short transaction per batch",
    "agents/worker.py": "the availability checker's rounds (ask outside, write after)",
    "registry/worker.py": "the registry sync's rounds: fetch a page, then a short write",
}
GONE = ("require_apart", "get_principal_apart", "ReaderApart", "AdminApart", "LinkSessionDep")


def _allowed(relative: str) -> bool:
    return any(
        relative == a or (a.endswith("/") and relative.startswith(a)) for a in TRANSACTIONS_ALLOWED
    )


def transaction_findings(source: str, relative: str) -> list[str]:
    """Calls of ``<anything>.transaction(`` in a module that may not open one."""
    if _allowed(relative):
        return []
    return [
        f"{relative}:{node.lineno}: opens a transaction (only the route's unit may)"
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "transaction"
    ]


def _sources() -> list[tuple[str, str]]:
    return [
        (path.read_text(encoding="utf-8"), path.relative_to(SRC).as_posix())
        for path in sorted(SRC.rglob("*.py"))
    ]


def test_only_the_route_opens_a_request_transaction() -> None:
    findings = [f for source, rel in _sources() for f in transaction_findings(source, rel)]
    assert findings == []


def test_the_transaction_scanner_flags_an_endpoint_that_opens_one() -> None:
    source = (
        "async def page(db):\n    async with db.transaction(write=False) as read:\n        pass\n"
    )
    assert transaction_findings(source, "web/endpoints.py") == [
        "web/endpoints.py:2: opens a transaction (only the route's unit may)"
    ]
    assert transaction_findings(source, "cli/agents.py") == []


def test_the_allowed_files_exist() -> None:
    for allowed in TRANSACTIONS_ALLOWED:
        assert (SRC / allowed).exists(), allowed


def test_the_old_side_doors_are_gone() -> None:
    found = [f"{rel}: {name}" for source, rel in _sources() for name in GONE if name in source]
    assert found == []


def _dependencies(dependant: Dependant) -> list[Dependant]:
    found = []
    for dep in dependant.dependencies:
        found.append(dep)
        found += _dependencies(dep)
    return found


def _api_routes(app: FastAPI) -> list[tuple[str, APIRoute]]:
    """(path, route) of every API route, through the routers FastAPI includes lazily."""
    return [
        (context.path_format or route.path, route)
        for context in iter_route_contexts(app.routes)
        if isinstance(route := context.original_route, APIRoute)
    ]


def test_every_api_route_runs_in_the_lifecycle(app: FastAPI) -> None:
    routes = _api_routes(app)
    assert len(routes) > 100
    assert [path for path, r in routes if not isinstance(r, UnitOfWorkRoute)] == []


def test_no_dependency_is_a_generator(app: FastAPI) -> None:
    generators = {
        f"{dep.call.__module__}.{dep.call.__qualname__}"
        for _, route in _api_routes(app)
        for dep in _dependencies(route.dependant)
        if dep.call is not None
        and (inspect.isasyncgenfunction(dep.call) or inspect.isgeneratorfunction(dep.call))
    }
    assert generators == set()


def test_declared_modes_fit_their_routes(app: FastAPI) -> None:
    by_mode: dict[Mode, list[str]] = {}
    for path, route in _api_routes(app):
        declared = mode_of(route.endpoint, route.methods)
        by_mode.setdefault(declared, []).append(path)
        takes_unit = any(d.call is request_unit for d in _dependencies(route.dependant))
        assert takes_unit == (declared is Mode.CALLS_OUT), (path, declared)
    # The mailed verification link; the routes that probe an agent or check a password before
    # they write.
    assert {"/v1/auth/verify-email"} <= set(by_mode[Mode.WRITE_ON_GET])
    assert {"/v1/admin/agents", "/v1/developer/agents", "/v1/auth/sign-in"} <= set(
        by_mode[Mode.CALLS_OUT]
    )
