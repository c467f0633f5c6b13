"""agora registry sync [--url URL] [--since TIME] [--full]"""

from __future__ import annotations

from typing import Annotated

import typer

from agora.cli.common import console, emit, run_with_db
from agora.kit.db import Database
from agora.kit.logging import configure_logging
from agora.registry.client import RegistryError
from agora.registry.service import SyncReport
from agora.registry.worker import sync
from agora.settings import Settings

registry_app = typer.Typer(
    help="Import agents from a Masumi-shaped registry.", no_args_is_help=True
)


@registry_app.command("sync")
def sync_command(
    url: Annotated[
        str | None,
        typer.Option(help="The registry service's base URL (default AGORA_REGISTRY_URL)."),
    ] = None,
    since: Annotated[
        str | None,
        typer.Option(
            help="Only entries whose status changed since this ISO 8601 time (registry-diff; "
            "the stored checkpoint is left alone)."
        ),
    ] = None,
    full: Annotated[
        bool,
        typer.Option("--full", help="Page the whole registry-entry list before the diff."),
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Upsert the feed's agents as PENDING (idempotent); invalid entries are quarantined.

    The first sync of a feed pages registry-entry, every sync then registry-diff from the stored
    checkpoint. AGORA_REGISTRY_TOKEN is sent as the `token` header."""

    async def work(db: Database, settings: Settings) -> SyncReport | str:
        configure_logging(settings.log_level, json=settings.json_logs)  # logs to stderr
        target = url or settings.registry.url
        if not target:
            return "give --url or set AGORA_REGISTRY_URL"
        try:
            return await sync(db, settings, target, updated_after=since, full=full)
        except RegistryError as exc:
            return str(exc)

    result = run_with_db(work)
    if isinstance(result, str):
        console.print(f"[red]error:[/red] {result}")
        raise typer.Exit(1)
    counts = result.as_dict()
    text = ", ".join(f"{k} {v}" for k, v in counts.items())
    text += f"\nnext diff from {result.checkpoint}" if result.checkpoint else ""
    if result.reasons and not as_json:
        text += "\nquarantined:\n  " + "\n  ".join(result.reasons)
    emit(
        {
            **counts,
            "full": result.full,
            "statusUpdatedAfter": result.checkpoint,
            "quarantineReasons": result.reasons,
        },
        as_json,
        text,
    )
