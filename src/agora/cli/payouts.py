"""agora payouts run"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

import typer

from agora.billing.worker import run_payouts
from agora.cli.common import emit, run_with_db
from agora.kit.db import Database
from agora.kit.timeutil import as_utc
from agora.settings import Settings

payouts_app = typer.Typer(help="Pay sellers through Stripe Connect.", no_args_is_help=True)


@payouts_app.command("run")
def run(
    at: Annotated[
        str | None,
        typer.Option(
            "--at",
            help="Run as of this UTC time (ISO 8601; default now): the period and the end of "
            "the holdback are reckoned from it.",
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Transfer each seller's payable earnings above the minimum to their Stripe account, once
    per period (repeated or concurrent runs transfer once); print what was paid, refused and
    why any seller could not be paid. Exit status 1 when a transfer failed."""
    when = None
    if at is not None:
        try:
            when = as_utc(datetime.fromisoformat(at))
        except ValueError as exc:
            raise typer.BadParameter("not an ISO 8601 time", param_hint="--at") from exc

    async def work(db: Database, settings: Settings) -> dict[str, Any]:
        return (await run_payouts(db, settings, now=when)).as_dict()

    out = run_with_db(work)
    lines = [f"period {out['period']}"]
    lines += [f"paid {p['amount']} {p['currency']} to {p['account']} ({p['transfer']})"
              for p in out["paid"]]  # fmt: skip
    lines += [f"failed {p['amount']} {p['currency']} to {p['account']}: {p['reason']}"
              for p in out["failed"]]  # fmt: skip
    lines += [f"not paid {p['amount']} {p['currency']} to {p['account']}: {p['reason']}"
              for p in out["blocked"]]  # fmt: skip
    if out["unanswered"]:
        lines.append(f"{out['unanswered']} left pending: Stripe did not answer (run again)")
    emit(out, as_json, "\n".join(lines))
    if out["failed"]:
        raise typer.Exit(1)
