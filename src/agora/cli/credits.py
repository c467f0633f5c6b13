"""agora credits grant"""

from __future__ import annotations

from typing import Annotated

import typer

from agora.cli.common import emit, run_with_db
from agora.credits import ledger
from agora.identity import repository as repo
from agora.kit.db import Database
from agora.kit.errors import NotFound
from agora.kit.ids import parse_uuid
from agora.kit.money import to_base, to_display
from agora.settings import Settings

credits_app = typer.Typer(help="Manage credits.", no_args_is_help=True)


@credits_app.command("grant")
def grant(
    user: Annotated[str, typer.Option("--user", help="The user's email.")],
    amount: Annotated[str, typer.Option(help="Credits to grant, in display units.")],
    workspace: Annotated[
        str | None,
        typer.Option(help="Workspace to credit (default: the user's personal workspace)."),
    ] = None,
    memo: Annotated[str, typer.Option(help="A note kept in the ledger.")] = "grant",
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Grant credits to a user's workspace (written to the ledger)."""
    try:
        base = to_base(amount)
    except ValueError as exc:
        raise typer.BadParameter(f"--amount: {exc}") from exc
    if base <= 0:
        raise typer.BadParameter("--amount must be positive")

    async def work(db: Database, _settings: Settings) -> tuple[str, int]:
        async with db.transaction() as session:
            owner = await repo.user_by_email(session, user)
            if owner is None:
                raise NotFound(f"No user with email {user}")
            if workspace:
                ws_id = parse_uuid(workspace)
                if ws_id is None or not await repo.is_member(session, owner.id, ws_id):
                    raise NotFound(f"{user} has no workspace {workspace}")
            else:
                personal = await repo.personal_workspace(session, owner.id)
                if personal is None:
                    raise NotFound(f"{user} has no personal workspace")
                ws_id = personal.id
            balance = await ledger.grant(
                session, workspace_id=ws_id, amount=base, user_id=owner.id, memo=memo
            )
            return str(ws_id), balance

    ws, balance = run_with_db(work)
    emit(
        {"workspaceId": ws, "granted": to_display(base), "balance": to_display(balance)},
        as_json,
        f"granted {to_display(base)} credits to workspace {ws}; balance {to_display(balance)}",
    )
