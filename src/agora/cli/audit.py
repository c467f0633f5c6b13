"""agora audit prune"""

from __future__ import annotations

from typing import Annotated

import typer

from agora.audit import service as audit
from agora.cli.common import emit, run_with_db
from agora.kit.db import Database
from agora.settings import Settings

PRUNE_BATCH = 1000  # rows per transaction: a long backlog never holds one long delete

audit_app = typer.Typer(help="The audit log.", no_args_is_help=True)


@audit_app.command("prune")
def prune(
    days: Annotated[
        int | None,
        typer.Option(
            help="Keep this many days (default: AGORA_AUDIT_RETENTION_DAYS; 0 keeps all)."
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Delete audit rows older than the retention (run it daily, e.g. from cron)."""

    async def work(db: Database, settings: Settings) -> int:
        retention = settings.audit_retention_days if days is None else days
        deleted = 0
        while True:  # ends: each batch deletes rows that no longer exist for the next one
            async with db.transaction() as session:
                count = await audit.prune(session, retention, PRUNE_BATCH)
            deleted += count
            if count < PRUNE_BATCH:
                return deleted

    deleted = run_with_db(work)
    emit({"deleted": deleted}, as_json, f"deleted {deleted} audit rows")
