"""The web app's billing pages: "Buy credits" (packs, the card, the payment, the credits arriving
from Stripe's webhook), a purchase's receipt. The page pays through the same API as any client
(``POST /v1/credits/purchases``, ``.../pay``, ``GET .../{id}``: cookie + X-CSRF-Token), with
Stripe.js from the configured origin only (its CSP names that origin and no other)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from sqlalchemy.ext.asyncio import AsyncSession

from agora.auth.dependencies import SessionDep, SettingsDep, UnitDep
from agora.auth.principal import Principal
from agora.billing import payouts
from agora.billing import service as billing
from agora.billing import warnings as low_balance
from agora.credits import service as credits
from agora.kit import csvexport
from agora.kit.errors import NotFound
from agora.kit.money import shown_price, to_display
from agora.kit.units import Mode, UnitOfWorkRoute, mode
from agora.models import CreditPack, CreditPurchase
from agora.models.statuses import PurchaseStatus
from agora.settings import Settings
from agora.web import charts
from agora.web.render import stripe_csp
from agora.web.shell import SignedInDep, Text, posted, safe_next
from agora.web.shell import render as _render

router = APIRouter(include_in_schema=False, route_class=UnitOfWorkRoute)
From = Annotated[str | None, Query(alias="from", max_length=40)]
To = Annotated[str | None, Query(alias="to", max_length=40)]


async def header(session: AsyncSession, principal: Principal) -> dict[str, Any]:
    """The header's balance, and the low-balance banner's facts (web/shell.py, ``Layout``)."""
    balance, low = await low_balance.header(session, principal)
    return {"header_balance": balance, "low_balance": low}


def _pack_view(pack: CreditPack) -> dict[str, Any]:
    return {
        "id": str(pack.id),
        "name": pack.name,
        "credits": to_display(pack.credits),
        "price": shown_price(pack.price, pack.currency),
    }


async def _buy_page(
    request: Request,
    session: AsyncSession,
    principal: Principal,
    settings: Settings,
    *,
    next_path: str | None,
    purchase: CreditPurchase | None = None,
) -> HTMLResponse:
    packs = [_pack_view(p) for p in await billing.list_packs(session)]
    chosen = str(purchase.pack_id) if purchase is not None else (packs[0]["id"] if packs else "")
    response = await _render(
        request, session, principal, "buy.html",
        packs=packs, chosen=chosen, purchase=purchase,
        enabled=settings.stripe.enabled, may_buy=billing.may_buy(principal),
        stripe_js=settings.stripe.js_url, publishable_key=settings.stripe.publishable_key,
        next_path=safe_next(next_path, "/credits"),
    )  # fmt: skip
    if settings.stripe.enabled:
        response.headers["Content-Security-Policy"] = stripe_csp(settings)
    return response


@router.get("/credits/buy")
async def buy_page(
    request: Request,
    session: SessionDep,
    principal: SignedInDep,
    settings: SettingsDep,
    next: Text = None,
) -> HTMLResponse:
    return await _buy_page(request, session, principal, settings, next_path=next)


@router.get("/credits/buy/{purchase_id}")
async def pay_page(
    request: Request,
    purchase_id: str,
    session: SessionDep,
    principal: SignedInDep,
    settings: SettingsDep,
    next: Text = None,
) -> HTMLResponse:
    """The page a purchase link (``payUrl``: API, MCP) opens: pay that purchase."""
    purchase = await billing.get_purchase(session, principal, purchase_id)
    if purchase.status != PurchaseStatus.PENDING:
        raise NotFound(f"Purchase {purchase_id} is {purchase.status}: nothing to pay")
    return await _buy_page(request, session, principal, settings, next_path=next, purchase=purchase)


@router.get("/credits/purchases/{purchase_id}")
async def receipt_page(
    request: Request, purchase_id: str, session: SessionDep, principal: SignedInDep
) -> HTMLResponse:
    """Agora's receipt of a purchase (and Stripe's, when Stripe sent its link)."""
    purchase = await billing.get_purchase(session, principal, purchase_id)
    return await _render(
        request, session, principal, "receipt.html",
        purchase=purchase, price=shown_price(purchase.price, purchase.currency),
        refunded=shown_price(purchase.refunded, purchase.currency),
    )  # fmt: skip


def spend_chart(days: list[tuple[datetime, int]], cut: bool) -> charts.Chart:
    """The credits page's chart: credits spent per day (UTC) over the last 30 days."""
    total = sum(v for _, v in days)
    peak = max((v for _, v in days), default=0)
    first, last = (days[0][0], days[-1][0]) if days else (None, None)
    span = f"from {first:%b} {first.day} to {last:%b} {last.day}" if first and last else ""
    words = (
        f"{to_display(total)} credits spent in the last {len(days)} days ({span}, UTC days), "
        f"at most {to_display(peak)} in a day."
        if total
        else f"Nothing spent in the last {len(days)} days."
    ) + (" The newest days are not all counted." if cut else "")
    return charts.bars(
        "spend-chart", f"Credits spent per day, last {len(days)} days",
        [(f"{d:%b} {d.day}", float(v) if v else 0.0, f"{to_display(v)} credits") for d, v in days],
        description=words,
    )  # fmt: skip


@router.get("/credits")
async def credits_page(request: Request, session: SessionDep, principal: SignedInDep) -> Response:
    account = await credits.account(session, principal, limit=50)
    days, cut = await credits.daily_spend(session, principal)
    return await _render(
        request, session, principal, "credits.html", account=account,
        spend_chart=spend_chart(days, cut),
        balance=to_display(account.balance), held=to_display(account.held),
        shortfall=account.shortfall,
        purchases=await billing.list_purchases(session, principal, limit=50),
    )  # fmt: skip


@router.get("/credits/ledger.csv")
async def ledger_export(request: Request, principal: SignedInDep) -> Response:
    """The workspace's whole ledger as CSV, streamed (as ``GET /v1/credits/ledger/export``)."""
    return csvexport.download(request.app.state.db, credits.ledger_export(principal))


@router.get("/credits/spend.csv")
async def spend_export(
    request: Request, principal: SignedInDep, since: From = None, until: To = None
) -> Response:
    """A period's spend as CSV (``from``, ``to``: dates; this month by default), streamed (as
    ``GET /v1/credits/spend/export``)."""
    export = credits.spend_export(principal, since=since, until=until)
    return csvexport.download(request.app.state.db, export)


# ---- a seller's Stripe account (docs/billing.md, "Paying sellers") -----------------------------


@router.post("/developer/payouts/connect")
@mode(Mode.CALLS_OUT)
async def connect_stripe(
    request: Request, unit: UnitDep, principal: SignedInDep, settings: SettingsDep
) -> Response:
    """To Stripe's onboarding (the Express account is made the first time)."""
    await posted(request)
    url = await payouts.start_onboarding(unit, principal, settings)
    return RedirectResponse(url, status_code=303)


@router.post("/developer/payouts/check")
@mode(Mode.CALLS_OUT)
async def check_stripe(
    request: Request, unit: UnitDep, principal: SignedInDep, settings: SettingsDep
) -> Response:
    """Read the account's state from Stripe again (its webhook may be late)."""
    await posted(request)
    await payouts.refresh_account(unit, principal, settings)
    return RedirectResponse("/developer/earnings#payout-account", status_code=303)


@router.get("/developer/payouts/return")
async def stripe_returned(_principal: SignedInDep) -> Response:
    """Stripe's ``return_url``: the state comes with ``account.updated`` (or "Check again")."""
    return RedirectResponse("/developer/earnings?stripe=returned#payout-account", status_code=303)


@router.get("/developer/payouts/refresh")
async def stripe_refresh(_principal: SignedInDep) -> Response:
    """Stripe's ``refresh_url`` (the link expired or was used): start again from the page."""
    return RedirectResponse("/developer/earnings?stripe=expired#payout-account", status_code=303)
