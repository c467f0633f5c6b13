"""The generated half of the Python client (``clients/python/agora_client/generated``), made by
``openapi-python-client`` from the OpenAPI document this code serves at ``/v1/openapi``.

    python tools/client.py write   # `make client`: regenerate it in place
    python tools/client.py check   # `make lint`: fail when the committed client is out of date

The document is built in-process (``agora.app.create_app``, no server, no database work). The
generator runs in its own virtual environment, ``.venv-client`` (its pins in
``clients/python/generator-requirements.txt``: its ``typer`` pin conflicts with Agora's), made on
first use and again when the pins change; a lock file keeps parallel runs from racing to make it.
"""

from __future__ import annotations

import fcntl
import filecmp
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
CLIENT = ROOT / "clients" / "python"
TARGET = CLIENT / "agora_client" / "generated"
CONFIG = CLIENT / "openapi-python-client.json"
PINS = CLIENT / "generator-requirements.txt"
GENERATOR_VENV = ROOT / ".venv-client"
PREFIXED = re.compile(r"^agora__(?P<domain>[a-z_]+)__schemas__(?P<name>\w+)$")


def openapi_document() -> dict[str, Any]:
    """``GET /v1/openapi``'s document, from the app factory, made fit for the generator: the
    schemas FastAPI had to prefix with their module (two domains both have a ``MessageOut``)
    keep their title, which the generator uses as the class name: every schema whose title
    another shares gets one from its key (``ConversationsMessageOut``), so each is unique."""
    from agora.app import create_app
    from agora.settings import Settings

    with tempfile.TemporaryDirectory(prefix="agora-openapi-") as data_dir:
        settings = Settings(data_dir=Path(data_dir), secret_key="openapi-" * 4, demo=False)
        app = create_app(settings, background=False, migrate=False)
        doc: dict[str, Any] = app.state.openapi_document()
    doc = json.loads(json.dumps(doc))
    doc["servers"] = [{"url": "/", "description": "base_url"}]
    schemas: dict[str, Any] = doc.get("components", {}).get("schemas", {})
    titles = Counter(schema.get("title", key) for key, schema in schemas.items())
    for key, schema in schemas.items():
        if titles[schema.get("title", key)] > 1 and schema.get("title") != key:
            schema["title"] = _unique_title(key)
    return doc


def _unique_title(key: str) -> str:
    """``agora__conversations__schemas__MessageOut`` → ``ConversationsMessageOut``."""
    match = PREFIXED.match(key)
    if match:
        domain = "".join(part.title() for part in match["domain"].split("_"))
        return f"{domain}{match['name']}"
    return "".join(part[:1].upper() + part[1:] for part in re.split(r"[^A-Za-z0-9]+", key))


def _generator() -> Path:
    """The generator's executable in ``.venv-client``, (re)made when its pins changed."""
    GENERATOR_VENV.parent.mkdir(parents=True, exist_ok=True)
    stamp = GENERATOR_VENV / "pins.txt"
    executable = GENERATOR_VENV / "bin" / "openapi-python-client"
    with (ROOT / ".venv-client.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        pins = PINS.read_text(encoding="utf-8")
        if not executable.exists() or not stamp.exists() or stamp.read_text() != pins:
            shutil.rmtree(GENERATOR_VENV, ignore_errors=True)
            base = getattr(sys, "_base_executable", sys.executable)
            subprocess.run([base, "-m", "venv", str(GENERATOR_VENV)], check=True, timeout=120)  # noqa: S603
            subprocess.run(  # noqa: S603 (fixed arguments: our paths)
                [str(GENERATOR_VENV / "bin" / "pip"), "install", "--quiet",
                 "--disable-pip-version-check", "-r", str(PINS)],
                check=True, timeout=600,
            )  # fmt: skip
            stamp.write_text(pins)
    return executable


def generate(into: Path) -> None:
    """Write the generated package to ``into`` (which must not exist)."""
    executable = _generator()
    with tempfile.TemporaryDirectory(prefix="agora-client-") as work:
        document = Path(work) / "openapi.json"
        document.write_text(json.dumps(openapi_document(), indent=1, sort_keys=True))
        env = dict(os.environ, PATH=f"{executable.parent}{os.pathsep}{os.environ['PATH']}")
        result = subprocess.run(  # noqa: S603 (fixed arguments: our paths)
            [str(executable), "generate", "--path", str(document), "--meta", "none",
             "--config", str(CONFIG), "--output-path", str(into)],
            env=env, capture_output=True, text=True, timeout=300, check=False, cwd=work,
        )  # fmt: skip
        if result.returncode != 0 or not (into / "__init__.py").exists():
            raise SystemExit(f"openapi-python-client failed:\n{result.stdout}\n{result.stderr}")
        if "Unable to" in result.stdout or "Unable to" in result.stderr:
            # Every schema and operation must make it into the client: say which did not.
            raise SystemExit(f"openapi-python-client dropped parts:\n{result.stdout}")


def _differences(left: Path, right: Path) -> list[str]:
    found: list[str] = []

    def walk(comparison: filecmp.dircmp[str], prefix: str) -> None:
        found.extend(f"only in the committed client: {prefix}{n}" for n in comparison.left_only)
        found.extend(f"missing in the committed client: {prefix}{n}" for n in comparison.right_only)
        found.extend(f"differs: {prefix}{n}" for n in comparison.diff_files)
        for name, sub in comparison.subdirs.items():
            walk(sub, f"{prefix}{name}/")

    walk(filecmp.dircmp(left, right, ignore=["__pycache__"]), "")
    return found


def main(argv: list[str]) -> int:
    command = argv[0] if argv else "check"
    if command not in ("write", "check"):
        print(__doc__)
        return 2
    with tempfile.TemporaryDirectory(prefix="agora-client-out-") as out:
        fresh = Path(out) / "generated"
        generate(fresh)
        if command == "write":
            shutil.rmtree(TARGET, ignore_errors=True)
            shutil.copytree(fresh, TARGET)
            print(f"wrote {TARGET.relative_to(ROOT)}")
            return 0
        differences = _differences(TARGET, fresh) if TARGET.exists() else ["no committed client"]
    if differences:
        print("The committed Python client is out of date: run `make client`.", file=sys.stderr)
        print("\n".join(differences[:50]), file=sys.stderr)
        return 1
    print("the committed Python client matches the OpenAPI document")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
