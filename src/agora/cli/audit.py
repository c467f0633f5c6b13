"""agora audit prune"""

from __future__ import annotations

from functools import partial
from typing import Annotated

import typer

from agora.audit import service as audit
from agora.cli.common import emit, run_with_db
from agora.kit.db import Database
from agora.ops.worker import delete_in_batches
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
        retention = settings.accounts.audit_retention_days if days is None else days
        prune_batch = partial(audit.prune, retention_days=retention)
        # Until done: each batch deletes rows that are gone for the next one.
        return await delete_in_batches(db, prune_batch, batch=PRUNE_BATCH, max_batches=None)

    deleted = run_with_db(work)
    emit({"deleted": deleted}, as_json, f"deleted {deleted} audit rows")
