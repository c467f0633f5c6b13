"""agora coworkers whitelist|unwhitelist"""

from __future__ import annotations

from typing import Annotated

import typer

from agora.cli.common import emit, run_with_db
from agora.coworkers import service
from agora.kit.db import Database
from agora.settings import Settings

coworkers_app = typer.Typer(help="Operate coworkers.", no_args_is_help=True)


def _set(coworker: str, on: bool, as_json: bool) -> None:
    async def work(db: Database, _settings: Settings) -> tuple[str, str, str]:
        async with db.transaction() as session:
            row = await service.whitelist(session, coworker, on=on)
            return str(row.id), row.slug, "whitelisted" if on else "not whitelisted"

    coworker_id, slug, state = run_with_db(work)
    emit(
        {"id": coworker_id, "slug": slug, "isWhitelisted": on},
        as_json,
        f"coworker {slug} ({coworker_id}) is {state}",
    )


@coworkers_app.command("whitelist")
def whitelist(
    coworker: Annotated[str, typer.Argument(help="The coworker's id, slug or name.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Whitelist a coworker: everyone may see it and give it tasks; keys may be issued."""
    _set(coworker, True, as_json)


@coworkers_app.command("unwhitelist")
def unwhitelist(
    coworker: Annotated[str, typer.Argument(help="The coworker's id, slug or name.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Take a coworker off the whitelist (its existing keys keep working for assigned tasks)."""
    _set(coworker, False, as_json)
