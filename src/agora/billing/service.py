"""Billing rules: packs and purchases (docs/billing.md).

Buying credits is one use case with three phases, none holding a transaction across a call to
Stripe (``start_purchase``: the REST route and the MCP tool call it): ``plan_purchase`` (read) →
``stripe_api.create_customer``/``create_intent`` (nothing held) → ``record_purchase`` (write).
Paying a purchase with a Stripe PaymentMethod is another (``pay_purchase``). Credits move only with
Stripe's verified webhook (``billing/webhook.py``).
"""

from __future__ import annotations

import re
import uuid
from dataclasses import dataclass
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from agora.auth.principal import Permission, Principal
from agora.auth.roles import OrgAction, role_allows
from agora.billing import promotions, stripe_api
from agora.billing import repository as repo
from agora.billing.currencies import price_problem
from agora.billing.promotions import Applied
from agora.billing.stripe_api import Intent
from agora.billing.webhook import OPEN
from agora.kit.errors import BadRequest, Conflict, Forbidden, NotFound
from agora.kit.ids import uuid7
from agora.kit.money import to_base
from agora.kit.units import Unit
from agora.models import CreditPack, CreditPurchase
from agora.models.statuses import PurchaseStatus
from agora.settings import Settings

MAX_PURCHASES = 100
CURRENCY = re.compile(r"^[a-z]{3}$")


def _uuid(value: str | uuid.UUID, what: str) -> uuid.UUID:
    if isinstance(value, uuid.UUID):
        return value
    try:
        return uuid.UUID(str(value))
    except ValueError as exc:
        raise NotFound(f"{what} {value} not found") from exc


def may_buy(principal: Principal) -> bool:
    """People with a user key or session in their own workspace, owners and admins in an
    organization's (auth/roles.py)."""
    if Permission.JOBS_WRITE not in principal.permissions or principal.key_kind == "coworker":
        return False
    return principal.organization_id is None or role_allows(
        principal.org_role, OrgAction.BUY_CREDITS
    )


def require_buyer(principal: Principal) -> None:
    principal.require(Permission.JOBS_WRITE)
    if not may_buy(principal):
        raise Forbidden("Only the organization's owners and admins buy its credits")


# ---- packs -----------------------------------------------------------------------------------


async def list_packs(session: AsyncSession, *, include_archived: bool = False) -> list[CreditPack]:
    return await repo.packs(session, active_only=not include_archived)


def credits_field(value: object, field: str, *, positive: bool = False) -> int:
    """Credits a request gives in display units, in base units; 400 naming ``field`` when not a
    number of credits, negative, or (``positive``) zero."""
    try:
        amount = to_base(str(value))
    except ValueError as exc:
        raise BadRequest.field(field, str(exc)) from exc
    if positive and amount <= 0:
        raise BadRequest.field(field, "must be positive")
    if amount < 0:
        raise BadRequest.field(field, "must not be negative")
    return amount


async def create_pack(
    session: AsyncSession, *, name: str, credits: Any, price: int, currency: str
) -> CreditPack:
    name = name.strip()
    if not 1 <= len(name) <= 100:
        raise BadRequest.field("name", "must be 1 to 100 characters")
    currency = currency.strip().lower()
    if not CURRENCY.match(currency):
        raise BadRequest.field("currency", "must be a three-letter ISO currency code")
    # Refused here, not by Stripe in front of every buyer (billing/currencies.py).
    problem = price_problem(price, currency)
    if problem is not None:
        raise BadRequest.field(*problem)
    row = repo.add_pack(
        session,
        id=uuid7(),
        name=name,
        credits=credits_field(credits, "credits", positive=True),
        price=price,
        currency=currency,
        active=True,
    )
    await session.flush()
    return row


async def update_pack(
    session: AsyncSession, pack_id: str | uuid.UUID, *, active: bool | None, name: str | None
) -> CreditPack:
    row = await repo.pack(session, _uuid(pack_id, "Credit pack"))
    if row is None:
        raise NotFound(f"Credit pack {pack_id} not found")
    if name is not None:
        if not 1 <= len(name.strip()) <= 100:
            raise BadRequest.field("name", "must be 1 to 100 characters")
        row.name = name.strip()
    if active is not None:
        row.active = active
    await session.flush()
    return row


# ---- buying ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class PurchasePlan:
    """What ``record_purchase`` writes once Stripe has answered."""

    purchase_id: uuid.UUID
    workspace_id: uuid.UUID
    user_id: uuid.UUID
    pack_id: uuid.UUID
    credits: int
    price: int
    currency: str
    customer_id: str | None
    customer_name: str
    email: str | None
    promotion: Applied | None = None


async def plan_purchase(
    session: AsyncSession,
    principal: Principal,
    pack_id: uuid.UUID,
    promotion_code: str | None = None,
) -> PurchasePlan:
    require_buyer(principal)
    pack = await repo.pack(session, pack_id)
    if pack is None or not pack.active:
        raise BadRequest.field("packId", "no such credit pack on sale")
    workspace = await repo.workspace_billing(session, principal.workspace_id)
    if workspace is None:
        raise NotFound("Workspace not found")
    applied = None
    if promotion_code is not None and promotion_code.strip():
        applied = await promotions.check_code(
            session, principal.user_id, promotion_code, pack.price, pack.currency
        )
    return PurchasePlan(
        purchase_id=uuid7(),
        workspace_id=workspace.id,
        user_id=principal.user_id,
        pack_id=pack.id,
        credits=pack.credits,
        price=pack.price - (applied.discount if applied else 0),
        currency=pack.currency,
        customer_id=workspace.stripe_customer_id,
        customer_name=workspace.name,
        email=await repo.user_email(session, principal.user_id),
        promotion=applied,
    )


async def record_purchase(
    session: AsyncSession, plan: PurchasePlan, customer_id: str, intent: Intent
) -> CreditPurchase:
    await repo.keep_customer(session, plan.workspace_id, customer_id)
    row = repo.add_purchase(
        session,
        id=plan.purchase_id,
        workspace_id=plan.workspace_id,
        user_id=plan.user_id,
        pack_id=plan.pack_id,
        credits=plan.credits,
        price=plan.price,
        currency=plan.currency,
        status=PurchaseStatus.PENDING,
        stripe_payment_intent_id=intent.id,
        stripe_customer_id=customer_id,
        refunded=0,
        clawed_back=0,
        shortfall=0,
        promotion_code_id=plan.promotion.code_id if plan.promotion else None,
        bonus_credits=plan.promotion.bonus_credits if plan.promotion else 0,
        discount=plan.promotion.discount if plan.promotion else 0,
    )
    await session.flush()
    if plan.promotion is not None:  # refused (400) when a concurrent checkout took the last use
        await promotions.take_use(session, plan.promotion, plan.user_id, plan.purchase_id)
    return row


async def get_purchase(
    session: AsyncSession, principal: Principal, purchase_id: str | uuid.UUID
) -> CreditPurchase:
    principal.require(Permission.READ)
    found = await repo.purchase(session, _uuid(purchase_id, "Purchase"), principal.workspace_id)
    if found is None:
        raise NotFound(f"Purchase {purchase_id} not found")
    return found


async def list_purchases(
    session: AsyncSession, principal: Principal, *, limit: int = 20
) -> list[CreditPurchase]:
    principal.require(Permission.READ)
    if not 1 <= limit <= MAX_PURCHASES:
        raise BadRequest.field("limit", f"must be between 1 and {MAX_PURCHASES}")
    return await repo.purchases(session, principal.workspace_id, limit)


@dataclass(frozen=True)
class StartedPurchase:
    """A purchase started: its row, the PaymentIntent's client secret (for Stripe.js) and the
    page that takes the payment."""

    purchase: CreditPurchase
    client_secret: str
    pay_url: str


def buy_url(settings: Settings) -> str:
    """The web app's "Buy credits" page."""
    return f"{settings.public_url.rstrip('/')}/credits/buy"


async def start_purchase(
    unit: Unit,
    principal: Principal,
    settings: Settings,
    pack_id: uuid.UUID,
    promotion_code: str | None = None,
) -> StartedPurchase:
    """Start buying a credit pack for the current workspace (REST ``createPurchase``, MCP
    ``get_purchase_link``): the plan is read, Stripe's customer (the workspace's first
    purchase) and PaymentIntent are made with nothing held, then the purchase is recorded (with
    its promotion code's use, docs/billing.md "Promotion codes")."""
    plan = await plan_purchase(await unit.session(), principal, pack_id, promotion_code)
    customer, intent = await unit.call_out(_customer_and_intent(settings, plan))
    row = await record_purchase(await unit.write(), plan, customer, intent)
    return StartedPurchase(row, intent.client_secret, f"{buy_url(settings)}/{row.id}")


async def _customer_and_intent(settings: Settings, plan: PurchasePlan) -> tuple[str, Intent]:
    customer = plan.customer_id or await stripe_api.create_customer(
        settings, workspace_id=plan.workspace_id, name=plan.customer_name, email=plan.email
    )
    intent = await stripe_api.create_intent(
        settings,
        purchase_id=plan.purchase_id,
        workspace_id=plan.workspace_id,
        amount=plan.price,
        currency=plan.currency,
        customer=customer,
    )
    return customer, intent


# ---- paying with a card --------------------------------------------------------------------


@dataclass(frozen=True)
class Payment:
    """A purchase after its card was tried. When the card needs 3-D Secure, ``next_action`` is
    Stripe's ``next_action.type``: ``redirect_to_url`` (send the buyer to ``redirect_url``,
    Stripe's page, which returns them to the receipt) or another the page hands to Stripe.js
    with the intent's ``client_secret``."""

    purchase: CreditPurchase
    next_action: str | None = None
    client_secret: str | None = None
    redirect_url: str | None = None


async def plan_payment(
    session: AsyncSession, principal: Principal, purchase_id: str
) -> CreditPurchase:
    """The purchase to pay with a card: the buyer's own workspace's, still open."""
    require_buyer(principal)
    found = await get_purchase(session, principal, purchase_id)
    if found.status != PurchaseStatus.PENDING:
        raise Conflict(
            f"Purchase {found.id} is {found.status}; it cannot be paid (start a new purchase)"
        )
    return found


def receipt_url(settings: Settings, purchase_id: uuid.UUID) -> str:
    """Agora's receipt of a purchase: where Stripe's 3-D Secure page sends the buyer back."""
    return f"{settings.public_url.rstrip('/')}/credits/purchases/{purchase_id}"


async def pay_purchase(
    unit: Unit, principal: Principal, settings: Settings, purchase_id: str, payment_method: str
) -> Payment:
    """Pay an open purchase with a PaymentMethod from Stripe.js (REST ``payPurchase``): the
    purchase is read, its PaymentIntent confirmed at Stripe with that payment method and nothing
    held, then a decline is recorded (final: the buyer starts another purchase). The credits
    still come only with Stripe's webhook."""
    found = await plan_payment(await unit.session(), principal, purchase_id)
    result = await unit.call_out(
        stripe_api.confirm_intent(
            settings,
            intent_id=found.stripe_payment_intent_id,
            payment_method=payment_method,
            return_url=receipt_url(settings, found.id),
        )
    )
    session = await unit.write()
    if result.error:
        await record_decline(session, principal, purchase_id, result.error)
        return Payment(await get_purchase(session, principal, purchase_id))
    row = await get_purchase(session, principal, purchase_id)
    if result.status == "requires_action":
        return Payment(row, result.next_action, result.client_secret, result.redirect_url)
    return Payment(row)


async def record_decline(
    session: AsyncSession, principal: Principal, purchase_id: str, message: str
) -> None:
    found = await get_purchase(session, principal, purchase_id)
    if found.status in OPEN:
        found.status = PurchaseStatus.FAILED
        found.failure_message = message[:500]
        await session.flush()
