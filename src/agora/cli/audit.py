"""agora audit prune"""

from __future__ import annotations

from typing import Annotated

import typer

from agora.audit import service as audit
from agora.cli.common import emit, run_with_db
from agora.kit.db import Database
from agora.settings import Settings

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
        async with db.transaction() as session:
            return await audit.prune(
                session, settings.audit_retention_days if days is None else days
            )

    deleted = run_with_db(work)
    emit({"deleted": deleted}, as_json, f"deleted {deleted} audit rows")
