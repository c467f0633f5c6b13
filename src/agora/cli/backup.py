"""agora backup DEST / agora restore SRC: the database and the file storage together, with a
manifest (docs/operations.md, "Backup and restore").

The database first, then the files: stored files are written once under
``<workspace id>/<file id>`` and never changed, so every file the dump names is in storage when
the copy starts. A backup is written into ``DEST/.partial`` and moved into place last, the
manifest after everything else: a directory without ``manifest.json`` is not a backup.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import re
import shutil
import sqlite3
import subprocess
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer
from sqlalchemy.engine import make_url

from agora import __version__
from agora.cli.common import console
from agora.files import service as files_service
from agora.files.storage import Storage
from agora.kit.db import Database
from agora.kit.migrate import current_revision
from agora.settings import Settings, get_settings

T = TypeVar("T")
MANIFEST = "manifest.json"
PARTIAL = ".partial"
SQLITE_FILE = "database.sqlite3"
POSTGRES_FILE = "database.pgdump"
BATCH = 500
CHUNK = 1024 * 1024
TOOL_SECONDS = 3600  # pg_dump / pg_restore: an hour at most


class BackupError(Exception):
    """A step failed; the message says which and why."""


def _fail(message: str) -> typer.Exit:
    console.print(f"[red]error:[/red] {message}")
    return typer.Exit(1)


def _run(work: Callable[[Database, Settings], Awaitable[T]]) -> T:
    """Run ``work`` on the configured database, without migrating it (a restore target must
    stay empty; a backup must not change what it copies)."""
    settings = get_settings()

    async def _main() -> T:
        db = Database(settings.resolved_database_url)
        try:
            return await work(db, settings)
        finally:
            await db.dispose()

    try:
        return asyncio.run(_main())
    except BackupError as exc:
        raise _fail(str(exc)) from exc


def _sqlite_path(db: Database) -> Path:
    database = make_url(db.url).database
    if not database or database == ":memory:":
        raise BackupError(f"cannot back up an in-memory SQLite database ({db.url})")
    return Path(database)


def _libpq(db: Database) -> tuple[str, dict[str, str]]:
    """The URL for pg_dump/pg_restore (libpq spelling, no password) and their environment (the
    password in PGPASSWORD, never on a command line)."""
    url = make_url(db.url)
    env = dict(os.environ)
    if url.password:
        env["PGPASSWORD"] = str(url.password)
    plain = url.set(drivername="postgresql", password=None, query={})
    return plain.render_as_string(hide_password=False), env


def _major(version: str) -> int:
    """``pg_dump (PostgreSQL) 15.20 (Debian 15.20-0+deb12u1)`` -> 15."""
    found = re.search(r"\)\s*(\d+)", version) or re.search(r"(\d+)", version)
    return int(found.group(1)) if found else 0


async def _check_client(db: Database, tool: str) -> str:
    """The tool's path; refused when missing or older than the server."""
    path = shutil.which(tool)
    if path is None:
        raise BackupError(f"{tool} not found on PATH: install the PostgreSQL client tools")
    out = await asyncio.to_thread(
        subprocess.run, [path, "--version"], capture_output=True, text=True, timeout=60
    )
    client = _major(out.stdout)
    async with db.engine.connect() as conn:  # the dialect learns the version on connecting
        server = int((conn.dialect.server_version_info or (0,))[0])
    if client < server:
        raise BackupError(
            f"{tool} {out.stdout.strip()} is older than the server (PostgreSQL {server}): "
            f"use a client at least as new as the server"
        )
    return path


async def _tool(argv: list[str], env: dict[str, str]) -> None:
    try:
        done = await asyncio.to_thread(
            subprocess.run, argv, capture_output=True, text=True, env=env, timeout=TOOL_SECONDS
        )
    except subprocess.TimeoutExpired as exc:
        raise BackupError(f"{Path(argv[0]).name} took more than {TOOL_SECONDS} s") from exc
    if done.returncode != 0:
        raise BackupError(f"{Path(argv[0]).name} failed: {done.stderr.strip()[-2000:]}")


def _sqlite_copy(source: Path, target: Path) -> None:
    """The online backup API: a consistent copy while the application writes."""
    src = sqlite3.connect(source)
    try:
        dst = sqlite3.connect(target)
        try:
            src.backup(dst)
        finally:
            dst.close()
    finally:
        src.close()


async def _stored_files(db: Database) -> list[str]:
    """The storage keys of every stored file row, in id order."""
    keys: list[str] = []
    after: uuid.UUID | None = None
    while True:
        async with db.transaction(write=False) as session:
            rows = await files_service.stored_keys(session, after=after, limit=BATCH)
        if not rows:
            return keys
        keys += [key for _file_id, key in rows]
        after = rows[-1][0]


def _safe_key(key: str) -> str:
    parts = key.split("/")
    if not key or key.startswith("/") or any(p in ("", ".", "..") for p in parts):
        raise BackupError(f"unsafe storage key in the manifest: {key!r}")
    return key


async def _save_blob(storage: Storage, key: str, target: Path) -> tuple[int, str]:
    digest = hashlib.sha256()
    size = 0
    target.parent.mkdir(parents=True, exist_ok=True)
    with target.open("wb") as out:
        async for chunk in storage.read(key):
            digest.update(chunk)
            size += len(chunk)
            await asyncio.to_thread(out.write, chunk)
    return size, digest.hexdigest()


def _prepare(dest: Path) -> Path:
    """A fresh ``DEST/.partial``; DEST must hold nothing else."""
    if dest.exists() and any(p.name != PARTIAL for p in dest.iterdir()):
        raise BackupError(f"{dest} is not empty: back up into a new directory")
    partial = dest / PARTIAL
    if partial.exists():
        shutil.rmtree(partial)  # a failed earlier attempt
    partial.mkdir(parents=True)
    return partial


async def _backup(db: Database, settings: Settings, dest: Path) -> dict[str, Any]:
    partial = await asyncio.to_thread(_prepare, dest)
    revision = await current_revision(db.engine)
    if revision is None:
        raise BackupError("the database has no schema (run `agora migrate` first)")
    # 1. The database.
    if db.is_sqlite:
        kind, dump = "sqlite", SQLITE_FILE
        await asyncio.to_thread(_sqlite_copy, _sqlite_path(db), partial / dump)
    else:
        kind, dump = "postgresql", POSTGRES_FILE
        pg_dump = await _check_client(db, "pg_dump")
        url, env = _libpq(db)
        await _tool(
            [pg_dump, "--format=custom", "--no-owner", f"--file={partial / dump}", url], env
        )
    # 2. The files the database names (all written before the dump's moment or after it: the
    # latter are orphans in the restored storage, which `agora storage check` reports).
    storage = files_service.storage_for(settings)
    files: list[dict[str, Any]] = []
    for key in await _stored_files(db):
        try:
            size, sha = await _save_blob(storage, key, partial / "files" / _safe_key(key))
        except BackupError:
            raise
        except Exception as exc:  # the backend's own error (missing blob, S3 refusal, disk)
            raise BackupError(f"could not copy stored file {key}: {exc}") from exc
        files.append({"key": key, "bytes": size, "sha256": sha})
    manifest = {
        "format": 1,
        "agora_version": __version__,
        "alembic_revision": revision,
        "database": kind,
        "database_file": dump,
        "created_at": datetime.now(UTC).isoformat(),
        "storage": storage.description,
        "file_count": len(files),
        "file_bytes": sum(f["bytes"] for f in files),
        "files": files,
    }
    # 3. Into place: the data, then the manifest (the mark of a complete backup).
    for entry in sorted(partial.iterdir()):
        entry.rename(dest / entry.name)
    (partial / MANIFEST).write_text(json.dumps(manifest, indent=2))
    (partial / MANIFEST).rename(dest / MANIFEST)
    partial.rmdir()
    return manifest


async def _chunks(path: Path) -> AsyncIterator[bytes]:
    with path.open("rb") as handle:
        while chunk := await asyncio.to_thread(handle.read, CHUNK):
            yield chunk


async def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    async for chunk in _chunks(path):
        digest.update(chunk)
    return digest.hexdigest()


async def _restore(db: Database, settings: Settings, src: Path, force: bool) -> dict[str, Any]:
    try:
        manifest = json.loads((src / MANIFEST).read_text())
    except FileNotFoundError as exc:
        raise BackupError(f"{src / MANIFEST} not found: not a complete backup") from exc
    kind = "sqlite" if db.is_sqlite else "postgresql"
    if manifest.get("database") != kind:
        raise BackupError(
            f"the backup holds a {manifest.get('database')} database; the target is {kind}"
        )
    dump = src / str(manifest["database_file"])
    if not dump.is_file():
        raise BackupError(f"{dump} is missing")
    # Verify the backup's files before touching anything.
    files: list[dict[str, Any]] = manifest["files"]
    for entry in files:
        path = src / "files" / _safe_key(entry["key"])
        if not path.is_file() or await _sha256(path) != entry["sha256"]:
            raise BackupError(f"backup file {entry['key']} is missing or damaged (sha256)")
    storage = files_service.storage_for(settings)
    if not force:
        if db.is_sqlite:
            target = _sqlite_path(db)
            has_schema = target.exists() and target.stat().st_size > 0
        else:
            has_schema = False
        if has_schema or await current_revision(db.engine) is not None:
            raise BackupError("the target database is not empty (use --force to replace it)")
        async for key in storage.list_keys():
            raise BackupError(f"the target storage is not empty ({key}; use --force)")
    # 1. The database.
    if db.is_sqlite:
        target = _sqlite_path(db)
        target.parent.mkdir(parents=True, exist_ok=True)
        await db.dispose()
        await asyncio.to_thread(_sqlite_copy, dump, target)
    else:
        pg_restore = await _check_client(db, "pg_restore")
        url, env = _libpq(db)
        argv = [pg_restore, "--no-owner", "--exit-on-error", f"--dbname={url}"]
        if force:
            argv += ["--clean", "--if-exists"]
        await db.dispose()
        await _tool([*argv, str(dump)], env)
    # 2. The files, each read back and checked against the manifest.
    for entry in files:
        key = entry["key"]
        await storage.write(key, _chunks(src / "files" / key))
        digest = hashlib.sha256()
        async for chunk in storage.read(key):
            digest.update(chunk)
        if digest.hexdigest() != entry["sha256"]:
            raise BackupError(f"stored file {key} does not match the manifest after the copy")
    return {
        "database": kind,
        "alembic_revision": manifest["alembic_revision"],
        "file_count": len(files),
        "file_bytes": sum(int(f["bytes"]) for f in files),
    }


def backup_command(
    dest: Annotated[Path, typer.Argument(help="A new (or empty) directory for the backup.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print the manifest's summary.")] = False,
) -> None:
    """Back up the database (SQLite online backup or pg_dump) and then the stored files it
    names, with a manifest.json (versions, counts, sha256 of each file)."""
    manifest = _run(lambda db, settings: _backup(db, settings, dest))
    summary = {k: v for k, v in manifest.items() if k != "files"}
    if as_json:
        typer.echo(json.dumps(summary))
    else:
        typer.echo(
            f"backup written to {dest}: {manifest['database']} at {manifest['alembic_revision']}, "
            f"{manifest['file_count']} files ({manifest['file_bytes']} bytes)"
        )


def restore_command(
    src: Annotated[Path, typer.Argument(help="A directory written by `agora backup`.")],
    force: Annotated[
        bool, typer.Option("--force", help="Replace a non-empty database and storage.")
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Restore a backup into the configured (empty) database and storage, verifying every file
    against the manifest's sha256; then run `agora migrate` if this Agora is newer."""
    report = _run(lambda db, settings: _restore(db, settings, src, force))
    if as_json:
        typer.echo(json.dumps(report))
    else:
        typer.echo(
            f"restored {report['database']} at {report['alembic_revision']}, "
            f"{report['file_count']} files ({report['file_bytes']} bytes)"
        )
