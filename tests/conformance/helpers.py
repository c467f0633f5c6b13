"""Agents generated from Agora's template (``agora agent new``, the CLI) into a test's
directory, loaded from their file and served on loopback; the CLI run in a thread (it calls
``asyncio.run`` itself)."""

from __future__ import annotations

import asyncio
import importlib.util
import sys
import uuid
import warnings
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

from typer.testing import CliRunner, Result

from agora.cli.main import app as cli_app


async def cli(*args: str, env: dict[str, str] | None = None) -> Result:
    return await asyncio.to_thread(CliRunner().invoke, cli_app, list(args), env=env)


def template_home(tmp_path: Path) -> dict[str, str]:
    """The environment that keeps the published template repository in the test's directory
    (``scaffold.template_repository``), not the home directory."""
    return {"XDG_DATA_HOME": str(tmp_path / "xdg")}


async def generate(
    tmp_path: Path, name: str, *, paid: bool = False, edits: dict[str, str] | None = None
) -> tuple[Path, Any]:
    """``agora agent new NAME`` into ``tmp_path/NAME``; ``edits`` (old → new text of
    agent.py) break a copy on purpose. Returns the directory and the loaded module (its `app`)."""
    target = tmp_path / name
    made = await cli(
        "agent", "new", name, "--dir", str(target), *(["--paid"] if paid else []),
        env=template_home(tmp_path),
    )  # fmt: skip
    assert made.exit_code == 0, made.output
    source = target / "agent.py"
    text = source.read_text()
    for old, new in (edits or {}).items():
        assert old in text, old
        text = text.replace(old, new)
    source.write_text(text)
    module_name = f"generated_{uuid.uuid4().hex}"
    spec = importlib.util.spec_from_file_location(module_name, source)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module  # pydantic resolves the models' annotations there
    with warnings.catch_warnings():  # masumi 1.2.0's models use pydantic's deprecated Config
        warnings.simplefilter("ignore", DeprecationWarning)
        spec.loader.exec_module(module)
    return target, module


def junit_cases(path: Path) -> dict[str, str]:
    """Each testcase of a JUnit file: its name → passed | failed | skipped."""
    root = ET.parse(path).getroot()
    found = {}
    for case in root.iter("testcase"):
        if case.find("failure") is not None:
            found[case.get("name", "")] = "failed"
        elif case.find("skipped") is not None:
            found[case.get("name", "")] = "skipped"
        else:
            found[case.get("name", "")] = "passed"
    return found


FREE_CHECKS = [
    "availability",
    "input-schema",
    "start-job",
    "job-completes",
    "provide-input",
    "status-idempotent",
    "rejects-bad-input",
    "unknown-job",
]
