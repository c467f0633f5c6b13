"""What Stripe's verified events do (docs/billing.md): credits are granted, and taken back, only
here, in the transaction that stores the event's id — a replayed or concurrent delivery of the
same event finds the id and changes nothing.

Events and their objects are the ``stripe`` SDK's own classes (``stripe.Event``,
``stripe.PaymentIntent``, ``stripe.Charge``, ``stripe.Dispute``). A field Stripe always sends is
read as the class declares it; one Stripe sends as null, and localstripe or a hand-built event
may leave out, is read with ``_present``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TypeVar

import stripe
import structlog
from sqlalchemy.ext.asyncio import AsyncSession

from agora.audit import service as audit
from agora.billing import payouts
from agora.billing import repository as repo
from agora.credits import ledger
from agora.kit.errors import BadRequest
from agora.kit.timeutil import utcnow
from agora.models import CreditPurchase
from agora.models.statuses import PurchaseStatus

log = structlog.get_logger(__name__)
T = TypeVar("T", bound=stripe.StripeObject)

# A purchase the webhook may still grant; a purchase whose money may come back
OPEN = (PurchaseStatus.PENDING, PurchaseStatus.FAILED)
PAID = (
    PurchaseStatus.PAID,
    PurchaseStatus.PARTIALLY_REFUNDED,
    PurchaseStatus.REFUNDED,
    PurchaseStatus.DISPUTED,
)


def _present(obj: stripe.StripeObject, name: str) -> object:
    """A field that may be absent (None then; a ``StripeObject`` has no ``get``)."""
    value: object = getattr(obj, name, None)
    return value


def _id(value: object) -> str | None:
    """An expandable field: the id string, or the expanded object's id."""
    if value is None or isinstance(value, str):
        return value
    found = _present(value, "id") if isinstance(value, stripe.StripeObject) else None
    return found if isinstance(found, str) else None


async def apply_event(session: AsyncSession, event: stripe.Event) -> str:
    """Apply a verified Stripe event once; what happened, in a word (for the response and logs)."""
    event_id, kind = _present(event, "id"), _present(event, "type")
    data = _present(event, "data")
    if not isinstance(event_id, str) or not event_id or len(event_id) > 255:
        raise BadRequest.field("id", "missing or not a Stripe event id")
    if not isinstance(kind, str) or not isinstance(data, stripe.StripeObject):
        raise BadRequest.field("type", "missing")
    obj = _present(data, "object")
    if not isinstance(obj, stripe.StripeObject):
        raise BadRequest.field("data.object", "missing")
    handler = HANDLERS.get(kind)
    if handler is None:
        return "ignored"
    if not await repo.record_event(session, event_id, kind):
        return "duplicate"
    try:
        return await handler(session, obj)
    except AttributeError as exc:  # a field Stripe always sends is missing
        raise BadRequest.field("data.object", f"not a Stripe object of {kind}: {exc}") from exc


def _as(cls: type[T], obj: stripe.StripeObject) -> T:
    """The event's object as the SDK's class for it (``construct_event`` picks the class by the
    object's ``object`` field; an object without one is read as ``cls`` the same way)."""
    return obj if isinstance(obj, cls) else cls.construct_from(obj.to_dict(), None)


async def _succeeded(session: AsyncSession, obj: stripe.StripeObject) -> str:
    intent = _as(stripe.PaymentIntent, obj)
    found = await repo.purchase_by_intent_for_update(session, intent.id)
    if found is None:
        log.warning("stripe_intent_unknown", event="payment_intent.succeeded", intent=intent.id)
        return "unknown"
    if found.status not in OPEN:
        return "already"
    if intent.amount != found.price or str(intent.currency) != found.currency:
        log.error(
            "stripe_intent_amount_mismatch",
            intent=intent.id,
            amount=intent.amount,
            currency=intent.currency,
        )
        return "mismatch"
    latest = _present(intent, "latest_charge")
    charge = _id(latest)
    await ledger.grant(
        session,
        workspace_id=found.workspace_id,
        amount=found.credits,
        user_id=found.user_id,
        kind="purchase",
        memo=f"purchase {found.id}: Stripe {intent.id}" + (f", charge {charge}" if charge else ""),
    )
    if found.bonus_credits:  # a promotion code's bonus: the operator's credits, its own kind
        await ledger.grant(
            session,
            workspace_id=found.workspace_id,
            amount=found.bonus_credits,
            user_id=found.user_id,
            kind="bonus",
            memo=f"bonus of a promotion code with purchase {found.id}",
        )
    found.status = PurchaseStatus.PAID
    found.paid_at = utcnow()
    found.failure_message = None
    found.stripe_charge_id = charge or found.stripe_charge_id
    if isinstance(latest, stripe.StripeObject):  # expanded: its receipt
        receipt = _present(latest, "receipt_url")
        found.receipt_url = receipt if isinstance(receipt, str) and receipt else found.receipt_url
    await session.flush()
    details: dict[str, object] = {"credits": found.credits, "price": found.price}
    details.update(currency=found.currency, buyer=str(found.user_id) if found.user_id else None)
    await _audit(session, "credits.purchased", found, details)
    return "granted"


async def _failed(session: AsyncSession, obj: stripe.StripeObject) -> str:
    intent = _as(stripe.PaymentIntent, obj)
    found = await repo.purchase_by_intent_for_update(session, intent.id)
    if found is None or found.status not in OPEN:
        return "ignored"
    error = _present(intent, "last_payment_error")
    message = _present(error, "message") if isinstance(error, stripe.StripeObject) else None
    found.status = PurchaseStatus.FAILED
    found.failure_message = str(message or "The payment failed")[:500]
    await session.flush()
    return "failed"


async def _charge_succeeded(session: AsyncSession, obj: stripe.StripeObject) -> str:
    charge = _as(stripe.Charge, obj)
    found = await repo.purchase_by_intent_for_update(
        session, _id(_present(charge, "payment_intent")) or ""
    )
    if found is None:
        return "ignored"
    found.stripe_charge_id = _id(charge) or found.stripe_charge_id
    url = _present(charge, "receipt_url")
    if isinstance(url, str) and url.startswith("https://"):
        found.receipt_url = url[:2000]
    await session.flush()
    return "receipt"


async def _audit(
    session: AsyncSession, action: str, found: CreditPurchase, details: dict[str, object]
) -> None:
    """What Stripe's event did to a purchase, in the audit log (no person acted)."""
    await audit.record(
        session,
        action,
        actor=None,
        target_kind="purchase",
        target_id=found.id,
        workspace_id=found.workspace_id,
        details=details,
    )


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
    bought = found.credits + found.bonus_credits  # a promotion code's bonus goes back too
    due_total = bought if returned >= found.price else bought * returned // found.price
    due = due_total - found.clawed_back - found.shortfall
    found.refunded = returned
    details = {"cause": cause, "returned": returned, "credits": max(due, 0)}
    await _audit(session, "credits.refunded", found, details)
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


async def _refunded(session: AsyncSession, obj: stripe.StripeObject) -> str:
    charge = _as(stripe.Charge, obj)
    intent_id = _id(_present(charge, "payment_intent"))
    found = await _purchase_of_charge(session, _id(charge), intent_id)
    if found is None or found.status not in PAID:
        log.warning("stripe_refund_unknown", event="charge.refunded", charge=_id(charge))
        return "unknown"
    outcome = await _take_back(session, found, int(charge.amount_refunded or 0), "refund")
    if found.status != PurchaseStatus.DISPUTED:
        fully = found.refunded >= found.price
        found.status = PurchaseStatus.REFUNDED if fully else PurchaseStatus.PARTIALLY_REFUNDED
    await session.flush()
    return outcome


async def _disputed(session: AsyncSession, obj: stripe.StripeObject) -> str:
    dispute = _as(stripe.Dispute, obj)
    charge_id = _id(dispute.charge)
    found = await _purchase_of_charge(session, charge_id, _id(_present(dispute, "payment_intent")))
    if found is None or found.status not in PAID:
        log.warning("stripe_dispute_unknown", event="charge.dispute.created", charge=charge_id)
        return "unknown"
    amount = int(dispute.amount or 0)
    outcome = await _take_back(session, found, found.refunded + amount, "dispute")
    found.status = PurchaseStatus.DISPUTED
    await session.flush()
    return outcome


Handler = Callable[[AsyncSession, stripe.StripeObject], Awaitable[str]]
# The events Agora handles; any other is "ignored" (and not recorded)
HANDLERS: dict[str, Handler] = {
    "payment_intent.succeeded": _succeeded,
    "payment_intent.payment_failed": _failed,
    "charge.succeeded": _charge_succeeded,
    "charge.refunded": _refunded,
    "charge.dispute.created": _disputed,
    # Stripe Connect (docs/billing.md, "Paying sellers"): a connected account's state, payouts
    "account.updated": payouts.on_account_updated,
    "transfer.created": payouts.on_transfer_created,
    "transfer.reversed": payouts.on_transfer_reversed,
}
