"""agora registry sync --url URL"""

from __future__ import annotations

from typing import Annotated

import typer

from agora.cli.common import console, emit, run_with_db
from agora.kit.db import Database
from agora.kit.logging import configure_logging
from agora.registry.client import RegistryError
from agora.registry.service import SyncReport, sync
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
        typer.Option(help="Only entries changed since this time (registry-diff)."),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Upsert the feed's agents as PENDING (idempotent); invalid entries are quarantined."""

    async def work(db: Database, settings: Settings) -> SyncReport | str:
        configure_logging(settings.log_level, json=settings.json_logs)  # logs to stderr
        target = url or settings.registry_url
        if not target:
            return "give --url or set AGORA_REGISTRY_URL"
        try:
            return await sync(db, settings, target, updated_after=since)
        except RegistryError as exc:
            return str(exc)

    result = run_with_db(work)
    if isinstance(result, str):
        console.print(f"[red]error:[/red] {result}")
        raise typer.Exit(1)
    counts = result.as_dict()
    text = ", ".join(f"{k} {v}" for k, v in counts.items())
    if result.reasons and not as_json:
        text += "\nquarantined:\n  " + "\n  ".join(result.reasons)
    emit({**counts, "quarantineReasons": result.reasons}, as_json, text)
