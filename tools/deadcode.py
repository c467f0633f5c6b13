"""Definitions used nowhere (`make lint`): vulture over src/, tests/ and bench/.

Vulture reads Python only, so three kinds of use are added before it judges:
- attributes and names the Jinja templates read (``{{ agent.published.is_shown }}``);
- fields of the wire schemas (``*/schemas.py``) and of the tables (``models/``): pydantic reads a
  view's attribute of the same name (``from_attributes``), SQLAlchemy writes a column's;
- the names in ALLOWED below, each called by a framework by name, with the reason.

Run: ``python tools/deadcode.py`` (exit 1 and one line per finding when something is unused).
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import jinja2
from jinja2 import nodes
from vulture import Vulture

ROOT = Path(__file__).resolve().parent.parent
PATHS = ["src/agora", "tests", "bench"]
EXCLUDE = ["src/agora/migrations/versions"]
TEMPLATES = ROOT / "src/agora/web/templates"
MIN_CONFIDENCE = 60

# Registered by decorator, found by the framework: routes, pages, CLI commands, validators,
# event listeners, SQL compilers, fixtures, the routes' mode and media markers.
IGNORE_DECORATORS = [
    "@router.*", "@*_router.*", "@app.*", "@*_app.*", "@*.command", "@field_validator",
    "@model_validator", "@*.exception_handler", "@event.listens_for", "@computed_field",
    "@public", "@mode", "@media", "@compiles", "@pytest.fixture", "@*.fixture",
]  # fmt: skip

ALLOWED = {
    # tests and pytest hooks, pydantic / SQLAlchemy configuration
    "test_*", "pytest_*", "pytestmark", "model_config", "inherit_cache",
    # pydantic-settings' hook choosing where Settings are read from (settings.py), called with
    # every source by keyword, settings_cls too
    "settings_customise_sources", "settings_cls",
    # uvicorn's --factory target (docs/production.md)
    "app_from_env",
    # a module's attribute hook (PEP 562): uvicorn's workers import their --http class by name
    # (cli/serve.py, SettingsHeaderTimeoutProtocol)
    "__getattr__",
    # httpcore's network-backend interface (kit/outbound.py implements all of it)
    "connect_unix_socket",
    # structlog's logger interface: every level name calls the one writer (kit/logging.py)
    "debug", "warn", "critical", "fatal",
    # the DB-API connection attribute SQLite reads (kit/db.py)
    "isolation_level",
    # notification kinds register themselves at import; the constant names them for readers
    "SCHEDULE_PAUSED", "ORG_INVITATION", "ORG_ROLE_CHANGED", "AGENT_REVIEW_DECIDED",
    "CREDITS_LOW_BALANCE", "CREDITS_CAP_REACHED",
    # pytest's Item interface, called by name (conformance/pytest_plugin.py)
    "runtest", "reportinfo",
    # uvicorn.Server's stop flag, set by the tests' and benchmarks' loopback servers
    "should_exit",
    # hooks the tests' loopback servers implement: aiosmtpd's handler, http.server's handler,
    # the MCP SDK's TokenStorage protocol, Authlib's clock, localstripe's persistence switches
    "handle_DATA", "do_POST", "log_message", "get_tokens", "set_tokens", "get_client_info",
    "set_client_info", "token_expiry_time", "get_timestamp", "dump_to_disk",
    "try_load_from_disk",
    # zipfile's interfaces (users/export.py): it asks an unseekable sink its position, and
    # reads a member's ZipInfo.compress_type
    "tell", "compress_type",
    # a2a-sdk's server interfaces, called by its JSON-RPC dispatcher by name: RequestHandler's
    # methods and ServerCallContextBuilder.build (a2aserver/handler.py, a2aserver/endpoints.py)
    "on_message_send", "on_message_send_stream", "on_subscribe_to_task", "on_get_task",
    "on_cancel_task", "on_list_tasks", "on_create_task_push_notification_config",
    "on_get_task_push_notification_config", "on_list_task_push_notification_configs",
    "on_delete_task_push_notification_config", "on_get_extended_agent_card", "build",
}  # fmt: skip


def template_names() -> set[str]:
    """Every attribute and variable a template reads."""
    environment = jinja2.Environment(autoescape=True)  # parsed only, never rendered
    names: set[str] = set()
    for path in TEMPLATES.rglob("*.html"):
        tree = environment.parse(path.read_text(encoding="utf-8"))
        names.update(node.attr for node in tree.find_all(nodes.Getattr))
        names.update(node.name for node in tree.find_all(nodes.Name))
        names.update(
            node.arg.value
            for node in tree.find_all(nodes.Getitem)
            if isinstance(node.arg, nodes.Const) and isinstance(node.arg.value, str)
        )
    return names


def declared_fields() -> set[str]:
    """The class-level fields of every wire schema (the envelopes too) and table."""
    files = [
        *ROOT.glob("src/agora/*/schemas.py"),
        *ROOT.glob("src/agora/models/*.py"),
        ROOT / "src/agora/kit/envelopes.py",
    ]
    names: set[str] = set()
    for path in files:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                names.update(
                    statement.target.id
                    for statement in node.body
                    if isinstance(statement, ast.AnnAssign)
                    and isinstance(statement.target, ast.Name)
                )
    return names


def main() -> int:
    vulture = Vulture(ignore_names=sorted(ALLOWED), ignore_decorators=IGNORE_DECORATORS)
    vulture.scavenge([str(ROOT / path) for path in PATHS], exclude=[str(ROOT / p) for p in EXCLUDE])
    for name in template_names() | declared_fields():
        vulture.used_names.add(name)
    unused = vulture.get_unused_code(min_confidence=MIN_CONFIDENCE)
    for item in unused:
        print(item.get_report(add_size=False).replace(str(ROOT) + "/", ""))
    return 1 if unused else 0


if __name__ == "__main__":
    sys.exit(main())
