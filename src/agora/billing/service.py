"""Billing rules: packs, purchases, the webhook's effects (docs/billing.md).

A purchase is made in three steps, none holding a transaction across a call to Stripe:
``plan_purchase`` (read) → ``stripe_api.create_customer``/``create_intent`` → ``record_purchase``
(write). Credits move only in ``apply_event``, for a verified event, in the transaction that
stores the event's id: a replayed or concurrent delivery of the same event finds the id and
changes nothing.
"""

from __future__ import annotations

import logging
import re
import uuid
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from agora.audit import service as audit
from agora.auth.principal import Permission, Principal
from agora.auth.roles import OrgAction, role_allows
from agora.billing import repository as repo
from agora.billing.stripe_api import Confirmation, Intent
from agora.credits import ledger
from agora.kit.errors import BadRequest, Conflict, Forbidden, NotFound
from agora.kit.ids import uuid7
from agora.kit.money import shown_price, to_base, to_display
from agora.kit.timeutil import utcnow
from agora.models import CreditPack, CreditPurchase

log = logging.getLogger(__name__)

MAX_PURCHASES = 100
CURRENCY = re.compile(r"^[a-z]{3}$")
# Stripe's largest amount for a charge is 99 999 999 minor units (8 digits) in most currencies.
MAX_PRICE = 99_999_999
# A purchase the webhook may still grant. Only a pending one is paid with a card: a declined
# purchase is final and the buyer starts another (docs/billing.md).
OPEN = ("pending", "failed")
PAID = ("paid", "partially_refunded", "refunded", "disputed")
HANDLED = (
    "payment_intent.succeeded",
    "payment_intent.payment_failed",
    "charge.succeeded",
    "charge.refunded",
    "charge.dispute.created",
)


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


def _credits(value: Any) -> int:
    try:
        amount = to_base(value if isinstance(value, (int, str, Decimal)) else str(value))
    except ValueError as exc:
        raise BadRequest.field("credits", str(exc)) from exc
    if amount <= 0:
        raise BadRequest.field("credits", "must be positive")
    return amount


async def create_pack(
    session: AsyncSession, *, name: str, credits: Any, price: int, currency: str
) -> CreditPack:
    name = name.strip()
    if not 1 <= len(name) <= 100:
        raise BadRequest.field("name", "must be 1 to 100 characters")
    if not 1 <= price <= MAX_PRICE:
        raise BadRequest.field("price", f"must be 1 to {MAX_PRICE} minor units (cents)")
    currency = currency.strip().lower()
    if not CURRENCY.match(currency):
        raise BadRequest.field("currency", "must be a three-letter ISO currency code")
    row = repo.add_pack(
        session,
        id=uuid7(),
        name=name,
        credits=_credits(credits),
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


async def plan_purchase(
    session: AsyncSession, principal: Principal, pack_id: uuid.UUID
) -> PurchasePlan:
    require_buyer(principal)
    pack = await repo.pack(session, pack_id)
    if pack is None or not pack.active:
        raise BadRequest.field("packId", "no such credit pack on sale")
    workspace = await repo.workspace_billing(session, principal.workspace_id)
    if workspace is None:
        raise NotFound("Workspace not found")
    return PurchasePlan(
        purchase_id=uuid7(),
        workspace_id=workspace.id,
        user_id=principal.user_id,
        pack_id=pack.id,
        credits=pack.credits,
        price=pack.price,
        currency=pack.currency,
        customer_id=workspace.stripe_customer_id,
        customer_name=workspace.name,
        email=await repo.user_email(session, principal.user_id),
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
        status="pending",
        stripe_payment_intent_id=intent.id,
        stripe_customer_id=customer_id,
        refunded=0,
        clawed_back=0,
        shortfall=0,
    )
    await session.flush()
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


async def plan_payment(
    session: AsyncSession, principal: Principal, purchase_id: str
) -> CreditPurchase:
    """The purchase to pay with a card: the buyer's own workspace's, still open."""
    require_buyer(principal)
    found = await get_purchase(session, principal, purchase_id)
    if found.status != "pending":
        raise Conflict(
            f"Purchase {found.id} is {found.status}; it cannot be paid (start a new purchase)"
        )
    return found


async def record_payment(
    session: AsyncSession, principal: Principal, purchase_id: str, result: Confirmation
) -> CreditPurchase:
    """The purchase after its card was confirmed; the credits still come from the webhook."""
    return await get_purchase(session, principal, purchase_id)


async def record_decline(
    session: AsyncSession, principal: Principal, purchase_id: str, message: str
) -> None:
    found = await get_purchase(session, principal, purchase_id)
    if found.status in OPEN:
        found.status = "failed"
        found.failure_message = message[:500]
        await session.flush()


# ---- the webhook ---------------------------------------------------------------------------


def _id(value: Any) -> str | None:
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, dict) and isinstance(value.get("id"), str):
        return str(value["id"])
    return None


async def apply_event(session: AsyncSession, event: dict[str, Any]) -> str:
    """Apply a verified Stripe event once; what happened, in a word (for the response and logs)."""
    event_id = event.get("id")
    kind = event.get("type")
    data = event.get("data")
    if not isinstance(event_id, str) or not event_id or len(event_id) > 255:
        raise BadRequest.field("id", "missing or not a Stripe event id")
    if not isinstance(kind, str) or not isinstance(data, dict):
        raise BadRequest.field("type", "missing")
    obj = data.get("object")
    if not isinstance(obj, dict):
        raise BadRequest.field("data.object", "missing")
    if kind not in HANDLED:
        return "ignored"
    if not await repo.record_event(session, event_id, kind):
        return "duplicate"
    if kind == "payment_intent.succeeded":
        return await _succeeded(session, obj)
    if kind == "payment_intent.payment_failed":
        return await _failed(session, obj)
    if kind == "charge.succeeded":
        return await _charge_succeeded(session, obj)
    if kind == "charge.refunded":
        return await _refunded(session, obj)
    return await _disputed(session, obj)


async def _succeeded(session: AsyncSession, intent: dict[str, Any]) -> str:
    intent_id = _id(intent)
    found = await repo.purchase_by_intent_for_update(session, intent_id or "")
    if found is None:
        log.warning("stripe: payment_intent.succeeded for an unknown intent %s", intent_id)
        return "unknown"
    if found.status not in OPEN:
        return "already"
    if intent.get("amount") != found.price or str(intent.get("currency")) != found.currency:
        log.error(
            "stripe: intent %s paid %s %s, not the purchase's price",
            intent_id,
            intent.get("amount"),
            intent.get("currency"),
        )
        return "mismatch"
    charge = _id(intent.get("latest_charge"))
    await ledger.grant(
        session,
        workspace_id=found.workspace_id,
        amount=found.credits,
        user_id=found.user_id,
        kind="purchase",
        memo=f"purchase {found.id}: Stripe {intent_id}" + (f", charge {charge}" if charge else ""),
    )
    found.status = "paid"
    found.paid_at = utcnow()
    found.failure_message = None
    found.stripe_charge_id = charge or found.stripe_charge_id
    if isinstance(intent.get("latest_charge"), dict):
        found.receipt_url = intent["latest_charge"].get("receipt_url") or found.receipt_url
    await session.flush()
    await audit.record(
        session,
        "credits.purchased",
        actor=None,
        target_kind="purchase",
        target_id=found.id,
        workspace_id=found.workspace_id,
        details={"credits": found.credits, "price": found.price, "currency": found.currency,
                 "buyer": str(found.user_id) if found.user_id else None},
    )  # fmt: skip
    return "granted"


async def _failed(session: AsyncSession, intent: dict[str, Any]) -> str:
    found = await repo.purchase_by_intent_for_update(session, _id(intent) or "")
    if found is None or found.status not in OPEN:
        return "ignored"
    error = intent.get("last_payment_error") or {}
    found.status = "failed"
    found.failure_message = str(error.get("message") or "The payment failed")[:500]
    await session.flush()
    return "failed"


async def _charge_succeeded(session: AsyncSession, charge: dict[str, Any]) -> str:
    found = await repo.purchase_by_intent_for_update(
        session, _id(charge.get("payment_intent")) or ""
    )
    if found is None:
        return "ignored"
    found.stripe_charge_id = _id(charge) or found.stripe_charge_id
    url = charge.get("receipt_url")
    if isinstance(url, str) and url.startswith("https://"):
        found.receipt_url = url[:2000]
    await session.flush()
    return "receipt"


async def _purchase_of_charge(
    session: AsyncSession, charge_id: str | None, intent_id: str | None
) -> CreditPurchase | None:
    found = await repo.purchase_by_charge_for_update(session, charge_id) if charge_id else None
    if found is None and intent_id:
        found = await repo.purchase_by_intent_for_update(session, intent_id)
    return found


async def _take_back(
    session: AsyncSession, found: CreditPurchase, returned: int, cause: str
) -> str:
    """``returned`` (minor units, in all) of the purchase went back to the buyer: take back the
    credits it bought, in proportion, as far as they were not taken back before."""
    returned = min(returned, found.price)
    if returned <= found.refunded:
        return "already"
    due_total = (
        found.credits if returned >= found.price else found.credits * returned // found.price
    )
    due = due_total - found.clawed_back - found.shortfall
    found.refunded = returned
    await audit.record(
        session,
        "credits.refunded",
        actor=None,
        target_kind="purchase",
        target_id=found.id,
        workspace_id=found.workspace_id,
        details={"cause": cause, "returned": returned, "credits": max(due, 0)},
    )
    if due > 0:
        stripe_id = found.stripe_charge_id or found.stripe_payment_intent_id
        taken, short = await ledger.clawback(
            session,
            workspace_id=found.workspace_id,
            amount=due,
            memo=f"{cause} of purchase {found.id} (Stripe {stripe_id})",
        )
        found.clawed_back += taken
        found.shortfall += short
    await session.flush()
    return "clawed_back"


async def _refunded(session: AsyncSession, charge: dict[str, Any]) -> str:
    found = await _purchase_of_charge(session, _id(charge), _id(charge.get("payment_intent")))
    if found is None or found.status not in PAID:
        log.warning("stripe: charge.refunded for charge %s of no paid purchase", _id(charge))
        return "unknown"
    outcome = await _take_back(session, found, int(charge.get("amount_refunded") or 0), "refund")
    if found.status != "disputed":
        found.status = "refunded" if found.refunded >= found.price else "partially_refunded"
    await session.flush()
    return outcome


async def _disputed(session: AsyncSession, dispute: dict[str, Any]) -> str:
    found = await _purchase_of_charge(
        session, _id(dispute.get("charge")), _id(dispute.get("payment_intent"))
    )
    if found is None or found.status not in PAID:
        log.warning("stripe: dispute on charge %s of no paid purchase", dispute.get("charge"))
        return "unknown"
    amount = int(dispute.get("amount") or 0)
    outcome = await _take_back(session, found, found.refunded + amount, "dispute")
    found.status = "disputed"
    await session.flush()
    return outcome


def describe(purchase: CreditPurchase) -> str:
    price = shown_price(purchase.price, purchase.currency)
    return f"{to_display(purchase.credits)} credits for {price}"
