"""agora storage check [--delete-orphans] [--json]"""

from __future__ import annotations

import time
import uuid
from typing import Annotated, Any

import typer

from agora.cli.common import emit, run_with_db
from agora.files import service as files_service
from agora.kit.db import Database
from agora.settings import Settings

storage_app = typer.Typer(help="The file storage (docs/files.md).", no_args_is_help=True)
BATCH = 500
GRACE_SECONDS = 3600  # a blob younger than this may be an upload whose row is not written yet


def _age_seconds(key: str) -> float | None:
    """A key's age from its file id (a UUIDv7 carries its creation time)."""
    try:
        file_id = uuid.UUID(key.rsplit("/", 1)[-1])
    except ValueError:
        return None
    if file_id.version != 7:
        return None
    return time.time() - (file_id.int >> 80) / 1000


@storage_app.command("check")
def check_command(
    delete_orphans: Annotated[
        bool,
        typer.Option(
            "--delete-orphans",
            help=f"Delete blobs no file row names (older than {GRACE_SECONDS} s).",
        ),
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Compare the storage with the database: blobs no file row names (orphans: left by a
    deleted workspace or job, or a failed write) and stored files whose blob is missing."""

    async def work(db: Database, settings: Settings) -> dict[str, Any]:
        storage = files_service.storage_for(settings)
        keys = [key async for key in storage.list_keys()]
        orphans: list[str] = []
        for start in range(0, len(keys), BATCH):
            batch = keys[start : start + BATCH]
            async with db.transaction(write=False) as session:
                known = await files_service.known_keys(session, batch)
            orphans += [k for k in batch if k not in known]
        held = set(keys)
        missing: list[str] = []
        after: uuid.UUID | None = None
        while True:
            async with db.transaction(write=False) as session:
                rows = await files_service.stored_keys(session, after=after, limit=BATCH)
            if not rows:
                break
            missing += [str(file_id) for file_id, key in rows if key not in held]
            after = rows[-1][0]
        deleted = 0
        if delete_orphans:
            for key in orphans:
                age = _age_seconds(key)
                if age is None or age > GRACE_SECONDS:
                    await storage.delete(key)
                    deleted += 1
        return {
            "storage": storage.description,
            "blobs": len(keys),
            "orphans": orphans,
            "missing": missing,
            "deleted": deleted,
        }

    report = run_with_db(work)
    text = (
        f"{report['storage']}: {report['blobs']} blobs, {len(report['orphans'])} orphans, "
        f"{len(report['missing'])} files missing their blob"
        + (f", {report['deleted']} orphans deleted" if delete_orphans else "")
    )
    if report["orphans"] and not as_json:
        text += "\norphans:\n  " + "\n  ".join(report["orphans"][:100])
    if report["missing"] and not as_json:
        text += "\nmissing (file ids):\n  " + "\n  ".join(report["missing"][:100])
    emit(report, as_json, text)
