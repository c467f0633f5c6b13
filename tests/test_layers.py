"""The house rules that a reader should not have to remember, checked on the source tree.

- SQL is built only in ``repository.py`` modules: no SQLAlchemy statement or clause constructors
  (``select(``, ``update(``, ``text(``, ``and_(`` …), no query methods (``.where(``,
  ``.order_by(`` …) and no column comparisons on model classes (``Job.status == x``) anywhere
  else, except the few files in ``SQL_ALLOWED``, each with its reason.
- The layers point one way: endpoints → services → repositories → models; ``kit/`` imports no
  domain package; models import only models and kit; the jobs package never imports dispatch.

The scanner works on source text, so ``test_scanner_flags_*`` feed it deliberately bad modules to
show that it fails when it should.
"""

from __future__ import annotations

import ast
import inspect
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import pytest
from fastapi import APIRouter, Depends, FastAPI
from fastapi.routing import APIRoute, iter_route_contexts

import agora
from agora.models import Base

SRC = Path(agora.__file__).parent

# Files outside repositories that may build SQL, and why.
SQL_ALLOWED: dict[str, str] = {
    "kit/db.py": "engine set-up: SQLite PRAGMAs and BEGIN IMMEDIATE through the driver, ping",
    "kit/leases.py": "the one claim of due rows (FOR UPDATE SKIP LOCKED) the work queues share",
    "kit/migrate.py": "the advisory lock that serialises upgrades; renaming an old revision id",
    "kit/reads.py": "runs the repositories' prepared SELECTs (PRAGMA busy_timeout on its own)",
    "kit/writes.py": "runs the repositories' prepared writes on the session's connection",
    "migrations/": "Alembic migrations are DDL by nature",
    "models/": "table definitions (indexes with predicates, server defaults)",
}

SQL_CONSTRUCTORS = frozenset(
    {
        "select",
        "update",
        "insert",
        "delete",
        "text",
        "and_",
        "or_",
        "not_",
        "exists",
        "func",
        "case",
        "literal",
        "literal_column",
        "union",
        "union_all",
        "tuple_",
        "bindparam",
        "true",
        "false",
        "null",
        "nulls_last",
        "nulls_first",
    }
)
QUERY_METHODS = frozenset(
    {
        "where",
        "filter",
        "filter_by",
        "order_by",
        "group_by",
        "having",
        "returning",
        "with_for_update",
        "on_conflict_do_nothing",
        "on_conflict_do_update",
        "in_",
        "not_in",
        "is_",
        "is_not",
        "like",
        "ilike",
    }
)
# Statement execution and ORM writes on a session: ``session.add(`` is an INSERT too.
SESSION_METHODS = frozenset(
    {"execute", "scalars", "scalar", "get", "add", "add_all", "delete", "merge", "stream"}
)
# A domain's doors: REST endpoints, web pages and MCP tools. Nothing else imports a door.
ENDPOINT_MODULES = frozenset(
    {"endpoints", "admin", "pages", "ops_pages", "provider_pages", "tools"}
)


@dataclass(frozen=True)
class Finding:
    where: str
    line: int
    what: str

    def __str__(self) -> str:
        return f"{self.where}:{self.line}: {self.what}"


def _module_name(relative: str) -> str:
    parts = relative.removesuffix(".py").split("/")
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(["agora", *parts])


def _imports(tree: ast.Module, module: str) -> list[tuple[int, str, list[str]]]:
    """(line, imported module, names) for every import, relative ones resolved."""
    found: list[tuple[int, str, list[str]]] = []
    package = module.rsplit(".", 1)[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name, []) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join([*anchor, base]) if base else ".".join(anchor)
            found.append((node.lineno, base, [alias.asname or alias.name for alias in node.names]))
    return found


MAPPED_CLASSES = frozenset(mapper.class_.__name__ for mapper in Base.registry.mappers)


def sql_findings(source: str, relative: str) -> list[Finding]:
    """SQL construction in a module that is not a repository (empty if it is allowed to)."""
    if relative.endswith("repository.py") or any(
        relative == allowed or (allowed.endswith("/") and relative.startswith(allowed))
        for allowed in SQL_ALLOWED
    ):
        return []
    tree = ast.parse(source)
    module = _module_name(relative)
    sqlalchemy_names: set[str] = set()  # names bound to SQLAlchemy constructors or the module
    model_names: set[str] = set()
    for _line, imported, names in _imports(tree, module):
        if imported == "sqlalchemy" or imported.startswith("sqlalchemy."):
            sqlalchemy_names.update(n for n in names if n in SQL_CONSTRUCTORS)
            if not names:
                sqlalchemy_names.add(imported.split(".")[0])
        elif imported == "agora.models" or imported.startswith("agora.models."):
            # Mapped classes only: enums such as ``models.statuses.JobStatus`` are plain values.
            model_names.update(n for n in names if n in MAPPED_CLASSES)
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name == "sqlalchemy" and alias.asname:
                    sqlalchemy_names.add(alias.asname)

    def on_model(node: ast.expr) -> bool:
        return (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id in model_names
        )

    findings: list[Finding] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Name) and func.id in sqlalchemy_names:
                findings.append(Finding(relative, node.lineno, f"{func.id}( outside a repository"))
            elif isinstance(func, ast.Attribute):
                base = func.value
                if (isinstance(base, ast.Name) and base.id in sqlalchemy_names) or (
                    func.attr in SESSION_METHODS
                    and isinstance(base, ast.Name)
                    and base.id in ("session", "conn", "connection")
                ):
                    findings.append(
                        Finding(
                            relative, node.lineno, f"{base.id}.{func.attr}( outside a repository"
                        )
                    )
                elif func.attr in QUERY_METHODS:
                    findings.append(
                        Finding(relative, node.lineno, f".{func.attr}( outside a repository")
                    )
        elif isinstance(node, ast.Compare) and any(
            on_model(side) for side in [node.left, *node.comparators]
        ):
            findings.append(Finding(relative, node.lineno, "model column comparison (a WHERE)"))
    return findings


# The composition root wires every router and service together: it may import anything.
ROOT = frozenset({"app.py", "api.py"})


def _layer(relative: str) -> str:
    name = relative.removesuffix(".py").split("/")[-1]
    if relative in ROOT or relative.startswith("cli/"):
        return "root"
    if relative.startswith("kit/"):
        return "kit"
    if relative.startswith("models/"):
        return "models"
    if name == "repository":
        return "repository"
    if name in ENDPOINT_MODULES:
        return "endpoints"
    return "other"


def layer_findings(source: str, relative: str) -> list[Finding]:
    """Imports that point the wrong way between layers."""
    tree = ast.parse(source)
    module = _module_name(relative)
    layer = _layer(relative)
    package = relative.split("/")[0] if "/" in relative else ""
    findings: list[Finding] = []
    for line, imported, names in _imports(tree, module):
        if not imported.startswith("agora"):
            continue
        targets = [imported] + [f"{imported}.{n}" for n in names]
        parts = imported.split(".")
        top = parts[1] if len(parts) > 1 else ""
        last_parts = {t.split(".")[-1] for t in targets}
        if layer == "kit" and top not in ("kit", ""):
            findings.append(Finding(relative, line, f"kit imports the domain module {imported}"))
        if layer == "kit" and imported == "agora" and names:
            findings.append(Finding(relative, line, f"kit imports agora.{names}"))
        if layer == "models" and top not in ("models", "kit"):
            findings.append(Finding(relative, line, f"a model imports {imported}"))
        if (
            layer == "repository"
            and top not in ("models", "kit")
            and not (parts[-1] == "repository" or "repository" in last_parts)
        ):
            findings.append(Finding(relative, line, f"a repository imports {imported} (upward)"))
        if layer == "other" and last_parts & ENDPOINT_MODULES and top != "kit":
            findings.append(Finding(relative, line, f"{imported} imports an endpoints module"))
        if layer == "endpoints" and "repository" in last_parts:
            findings.append(Finding(relative, line, f"an endpoint imports {imported} directly"))
        if package == "jobs" and top == "dispatch":
            findings.append(Finding(relative, line, "jobs imports dispatch (upward)"))
    return findings


def _sources() -> list[tuple[str, str]]:
    return [
        (path.read_text(encoding="utf-8"), path.relative_to(SRC).as_posix())
        for path in sorted(SRC.rglob("*.py"))
    ]


def test_sources_are_found() -> None:
    relatives = [relative for _, relative in _sources()]
    assert len(relatives) > 50
    assert "jobs/lifecycle.py" in relatives
    assert "history/service.py" in relatives


def test_sql_is_built_only_in_repositories() -> None:
    findings = [f for source, rel in _sources() for f in sql_findings(source, rel)]
    assert not findings, "SQL outside repositories:\n" + "\n".join(map(str, findings))


def test_layers_point_one_way() -> None:
    findings = [f for source, rel in _sources() for f in layer_findings(source, rel)]
    assert not findings, "imports against the layers:\n" + "\n".join(map(str, findings))


def test_allowed_sql_files_exist() -> None:
    for allowed in SQL_ALLOWED:
        assert (SRC / allowed).exists(), f"SQL_ALLOWED names a missing path: {allowed}"


MISPLACED = """
from sqlalchemy import select
from agora.models import Job

async def running(session):
    return (await session.execute(select(Job))).scalars().all()
"""


def test_scanner_flags_a_misplaced_select() -> None:
    findings = sql_findings(MISPLACED, "jobs/service.py")
    assert sorted(f.what for f in findings) == [
        "select( outside a repository",
        "session.execute( outside a repository",
    ]
    assert {f.line for f in findings} == {6}
    # The same text in a repository is where it belongs.
    assert sql_findings(MISPLACED, "jobs/repository.py") == []


def test_scanner_flags_a_misplaced_select_in_a_file(tmp_path: Path) -> None:
    path = tmp_path / "service.py"
    path.write_text(MISPLACED, encoding="utf-8")
    findings = sql_findings(path.read_text(encoding="utf-8"), "tasks/service.py")
    assert "select( outside a repository" in [f.what for f in findings]


@pytest.mark.parametrize(
    ("source", "what"),
    [
        ("import sqlalchemy as sa\nsa.update(1)\n", "sa.update( outside a repository"),
        ("from sqlalchemy import text\ntext('SELECT 1')\n", "text( outside a repository"),
        ("from sqlalchemy import or_\nor_(a, b)\n", "or_( outside a repository"),
        ("q = stmt.where(x)\n", ".where( outside a repository"),
        ("session.add(row)\n", "session.add( outside a repository"),
        ("await session.execute(stmt)\n", "session.execute( outside a repository"),
        (
            "from agora.models import Job\nc = Job.status == 'RUNNING'\n",
            "model column comparison (a WHERE)",
        ),
        ("from agora.models import Job\nc = Job.status.in_(['A'])\n", ".in_( outside a repository"),
    ],
)
def test_scanner_flags_each_kind_of_sql(source: str, what: str) -> None:
    assert [f.what for f in sql_findings(source, "history/service.py")] == [what]


def test_scanner_leaves_plain_python_alone() -> None:
    source = (
        "from agora.models import Job\n"
        "def f(job: Job, d: dict) -> bool:\n"
        "    d.update(a=1)\n"
        "    return job.status == 'RUNNING' and ', '.join([]) == ''\n"
    )
    assert sql_findings(source, "jobs/service.py") == []


@pytest.mark.parametrize(
    ("source", "relative", "what"),
    [
        ("from agora.jobs import service\n", "kit/ids.py", "kit imports the domain module"),
        ("from agora.dispatch import signals\n", "jobs/service.py", "jobs imports dispatch"),
        ("from agora.jobs import service\n", "jobs/repository.py", "a repository imports"),
        ("from agora.jobs import repository\n", "jobs/endpoints.py", "an endpoint imports"),
        ("from agora.jobs import endpoints\n", "jobs/service.py", "imports an endpoints module"),
        ("from agora.auth import principal\n", "models/job.py", "a model imports"),
    ],
)
def test_layer_scanner_flags_upward_imports(source: str, relative: str, what: str) -> None:
    findings = layer_findings(source, relative)
    assert findings, f"{relative}: {source!r} should be flagged"
    assert what in findings[0].what


def _sync_dependencies(dependant: Any, seen: set[int]) -> list[str]:
    found = []
    for dep in dependant.dependencies:
        call = dep.call
        if call is not None and id(call) not in seen:
            seen.add(id(call))
            is_async = inspect.iscoroutinefunction(call) or inspect.isasyncgenfunction(call)
            if not is_async and not inspect.isclass(call):
                found.append(f"{call.__module__}.{call.__qualname__}")
        found += _sync_dependencies(dep, seen)
    return found


def test_dependencies_are_async(app: FastAPI) -> None:
    # FastAPI runs a plain ``def`` dependency in its thread pool: a thread hop on every request
    # for what is usually a getattr (docs/performance.md). Dependencies are ``async def``.
    seen: set[int] = set()
    routes = [
        route
        for context in iter_route_contexts(app.routes)  # through the lazily included routers
        if isinstance(route := context.original_route, APIRoute)
    ]
    assert len(routes) > 100
    sync = [name for route in routes for name in _sync_dependencies(route.dependant, seen)]
    assert sync == []


def _plain_dependency() -> int:
    return 1


def test_sync_dependency_check_flags_a_plain_def() -> None:
    router = APIRouter()

    @router.get("/x")
    async def x(value: Annotated[int, Depends(_plain_dependency)]) -> int:
        return value

    route = router.routes[0]
    assert isinstance(route, APIRoute)
    assert _sync_dependencies(route.dependant, set()) == [f"{__name__}._plain_dependency"]


def _declared_layers() -> list[str]:
    """The modules of import-linter's "order" contract (pyproject.toml), top to bottom."""
    import tomllib

    config = tomllib.loads((SRC.parent.parent / "pyproject.toml").read_text(encoding="utf-8"))
    contracts = config["tool"]["importlinter"]["contracts"]
    order = next(c for c in contracts if c["id"] == "order")
    return [name.strip() for layer in order["layers"] for name in layer.split("|")]


def test_every_package_has_its_place_in_the_domain_order() -> None:
    """import-linter's layers check only the modules they name: a new domain must be placed."""
    declared = set(_declared_layers())
    present = {
        f"agora.{path.name.removesuffix('.py')}"
        for path in SRC.iterdir()
        if (path.is_dir() and (path / "__init__.py").exists())
        or (path.suffix == ".py" and path.name != "__init__.py")
    }
    assert present - declared == set(), "place these in pyproject.toml's domain order"
    assert declared - present == set(), "the domain order names modules that do not exist"
