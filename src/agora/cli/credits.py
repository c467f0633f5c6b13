"""agora credits grant | packs | reconcile"""

from __future__ import annotations

from typing import Annotated, Any

import typer

from agora.accounts import service as accounts
from agora.audit import service as audit
from agora.auth import service as auth
from agora.billing import reconcile as reconciliation
from agora.billing import service as billing
from agora.billing import stripe_api
from agora.billing.reconcile import Difference
from agora.cli.common import emit, run_with_db
from agora.credits import ledger
from agora.kit.db import Database
from agora.kit.errors import NotFound
from agora.kit.ids import parse_uuid
from agora.kit.money import shown_price, to_base, to_display
from agora.settings import Settings

credits_app = typer.Typer(help="Manage credits.", no_args_is_help=True)


@credits_app.command("grant")
def grant(
    user: Annotated[str, typer.Option("--user", help="The user's email.")],
    amount: Annotated[str, typer.Option(help="Credits to grant, in display units.")],
    reason: Annotated[
        str, typer.Option(help="Why (required; kept in the ledger entry, e.g. a ticket).")
    ],
    workspace: Annotated[
        str | None,
        typer.Option(help="Workspace to credit (default: the user's personal workspace)."),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Grant credits to a user's workspace (written to the ledger)."""
    try:
        base = to_base(amount)
    except ValueError as exc:
        raise typer.BadParameter(f"--amount: {exc}") from exc
    if base <= 0:
        raise typer.BadParameter("--amount must be positive")
    reason = reason.strip()
    if not reason:
        raise typer.BadParameter("--reason must say why the credits are granted")
    memo = f"grant: {reason}"[:500]

    async def work(db: Database, _settings: Settings) -> tuple[str, int]:
        async with db.transaction() as session:
            owner = await accounts.user_by_email(session, user)
            if owner is None:
                raise NotFound(f"No user with email {user}")
            if workspace:
                ws_id = parse_uuid(workspace)
                if ws_id is None or not await auth.is_member(session, owner.id, ws_id):
                    raise NotFound(f"{user} has no workspace {workspace}")
            else:
                personal = await auth.personal_workspace(session, owner.id)
                if personal is None:
                    raise NotFound(f"{user} has no personal workspace")
                ws_id = personal.id
            balance = await ledger.grant(
                session, workspace_id=ws_id, amount=base, user_id=owner.id, memo=memo
            )
            await audit.record(
                session,
                "credits.granted",
                actor=audit.SYSTEM,  # the operator at the server's shell
                target_kind="user",
                target_id=owner.id,
                workspace_id=ws_id,
                details={"amount": base, "reason": reason, "via": "cli", "balanceAfter": balance},
            )
            return str(ws_id), balance

    ws, balance = run_with_db(work)
    emit(
        {"workspaceId": ws, "granted": to_display(base), "balance": to_display(balance)},
        as_json,
        f"granted {to_display(base)} credits to workspace {ws}; balance {to_display(balance)}",
    )


packs_app = typer.Typer(
    help="Credit packs sold with Stripe (docs/billing.md).", no_args_is_help=True
)
credits_app.add_typer(packs_app, name="packs")


def _pack_json(pack: Any) -> dict[str, Any]:
    return {
        "id": str(pack.id),
        "name": pack.name,
        "credits": to_display(pack.credits),
        "price": pack.price,
        "currency": pack.currency,
        "displayPrice": shown_price(pack.price, pack.currency),
        "active": pack.active,
    }


@packs_app.command("add")
def add_pack(
    name: Annotated[str, typer.Option(help="Shown to buyers, e.g. '100 credits'.")],
    credits: Annotated[str, typer.Option(help="Credits in the pack, in display units.")],
    price: Annotated[
        int,
        typer.Option(
            help="Price in the currency's minor units, as Stripe counts them: cents (eur), "
            "yen (jpy), fils (kwd: ends in 0)."
        ),
    ],
    currency: Annotated[str, typer.Option(help="ISO 4217 code, e.g. eur.")] = "eur",
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Put a credit pack on sale."""

    async def work(db: Database, _settings: Settings) -> dict[str, Any]:
        async with db.transaction() as session:
            pack = await billing.create_pack(
                session, name=name, credits=credits, price=price, currency=currency
            )
            return _pack_json(pack)

    out = run_with_db(work)
    emit(out, as_json, f"pack {out['id']}: {out['credits']} credits for {out['displayPrice']}")


@packs_app.command("list")
def list_packs(
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Every pack, archived ones included."""

    async def work(db: Database, _settings: Settings) -> list[dict[str, Any]]:
        async with db.transaction(write=False) as session:
            return [_pack_json(p) for p in await billing.list_packs(session, include_archived=True)]

    out = run_with_db(work)
    text = "\n".join(
        f"{p['id']}  {p['name']}  {p['credits']} credits  {p['displayPrice']}"
        f"{'' if p['active'] else '  (archived)'}"
        for p in out
    )
    emit({"packs": out}, as_json, text or "no packs")


@packs_app.command("archive")
def archive_pack(
    pack_id: Annotated[str, typer.Argument(help="The pack's id.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Take a pack off sale (old purchases keep it)."""

    async def work(db: Database, _settings: Settings) -> dict[str, Any]:
        async with db.transaction() as session:
            return _pack_json(await billing.update_pack(session, pack_id, active=False, name=None))

    out = run_with_db(work)
    emit(out, as_json, f"pack {out['id']} archived")


@credits_app.command("reconcile")
def reconcile(
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Compare Stripe's balance transactions (from the API) with the purchases and the ledger,
    and Stripe's transfers with the payouts to sellers; print the differences (exit status 1
    when there are any)."""

    async def work(db: Database, settings: Settings) -> tuple[int, list[Difference]]:
        transactions = await stripe_api.balance_transactions(settings)  # no transaction open
        transfers = await stripe_api.transfers(settings)
        async with db.transaction(write=False) as session:
            found = await reconciliation.books(session)
        return len(transactions), reconciliation.compare(found, transactions, transfers)

    count, differences = run_with_db(work)
    lines = [
        f"{d.kind}: {d.subject}: Stripe {d.stripe}, Agora {d.agora} ({d.detail})"
        for d in differences
    ]
    emit(
        {"transactions": count, "differences": [d.as_dict() for d in differences]},
        as_json,
        "\n".join(lines) or f"{count} Stripe balance transactions; no differences",
    )
    if differences:
        raise typer.Exit(1)
