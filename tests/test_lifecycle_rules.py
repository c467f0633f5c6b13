"""The one request lifecycle (kit/units.py), kept true on the source tree and the app:

- only the route (``UnitOfWorkRoute``) opens a request's unit of work: every API route of the
  app is one, no dependency is a generator (the old ``yield`` sessions), and ``.transaction(``
  is called only in a ``worker.py``, in ``cli/`` and in ``kit/`` (a naming rule, below);
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


# Who may open a transaction is a naming rule: a domain's background rounds (``worker.py``: a
# ``LoopService`` claims, commits, calls out, writes anew), a CLI command (``cli/``: one
# transaction per command) and ``kit/`` (``Database.transaction`` itself, the request's and the
# tool call's ``Unit``, a live stream's reads between waits). A route, a page, a tool and a
# service never do: they take the unit's session.
def _allowed(relative: str) -> bool:
    return (
        relative.startswith(("kit/", "cli/"))
        or relative == "worker.py"
        or relative.endswith("/worker.py")
    )


GONE = ("require_apart", "get_principal_apart", "ReaderApart", "AdminApart", "LinkSessionDep")


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


def test_the_naming_rule_names_real_places() -> None:
    """Every domain worker and the CLI exist where the rule looks, and the rule refuses the rest
    of a domain."""
    workers = sorted(p.relative_to(SRC).as_posix() for p in SRC.rglob("worker.py"))
    assert len(workers) >= 7 and all(_allowed(w) for w in workers)
    assert _allowed("cli/serve.py") and _allowed("kit/livestreams.py")
    for refused in ("jobs/service.py", "jobs/workers.py", "web/kit.py", "notifications/pages.py"):
        assert not _allowed(refused), refused


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
