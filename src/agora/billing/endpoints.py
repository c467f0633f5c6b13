"""Credit packs, purchases and the Stripe webhook (key family; docs/billing.md).

Endpoints that call Stripe (create a purchase, pay one) are ``calls_out`` routes
(kit/units.py): they read in the read phase, call Stripe with no transaction open, then write.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Path, Query, Request

from agora.auth.dependencies import (
    Admin,
    JobsWriter,
    ProfileWriter,
    Reader,
    SessionDep,
    SettingsDep,
    UnitDep,
    public,
)
from agora.billing import caps, service, stripe_api
from agora.billing import warnings as low_balance
from agora.billing.schemas import (
    CapOut,
    CapSet,
    LowBalanceOut,
    LowBalanceSet,
    PackCreate,
    PackOut,
    PackUpdate,
    PaymentOut,
    PurchaseCreate,
    PurchaseCreatedOut,
    PurchaseOut,
    PurchasePay,
    WebhookOut,
)
from agora.kit.envelopes import EnvelopeA
from agora.kit.errors import PaymentRequired
from agora.kit.families import key_router
from agora.kit.units import Mode, mode

router = key_router(tags=["credits"])
PurchaseId = Annotated[str, Path(alias="purchaseId")]
PackId = Annotated[str, Path(alias="packId")]
CapId = Annotated[str, Path(alias="capId")]


@router.get("/credits/packs", response_model=EnvelopeA[list[PackOut]], operation_id="listPacks")
async def list_packs(session: SessionDep, _principal: Reader) -> EnvelopeA[list[PackOut]]:
    """The credit packs on sale, cheapest first."""
    packs = await service.list_packs(session)
    return EnvelopeA[list[PackOut]](data=[PackOut.model_validate(p) for p in packs])


@router.get(
    "/credits/purchases", response_model=EnvelopeA[list[PurchaseOut]], operation_id="listPurchases"
)
async def list_purchases(
    session: SessionDep,
    principal: Reader,
    limit: Annotated[int, Query(ge=1, le=100, description="Purchases to return.")] = 20,
) -> EnvelopeA[list[PurchaseOut]]:
    """The current workspace's purchases of credits, newest first."""
    rows = await service.list_purchases(session, principal, limit=limit)
    return EnvelopeA[list[PurchaseOut]](data=[PurchaseOut.model_validate(r) for r in rows])


@router.post(
    "/credits/purchases",
    status_code=201,
    response_model=EnvelopeA[PurchaseCreatedOut],
    operation_id="createPurchase",
    openapi_extra={"x-agora-errors": [403, 503]},
)
@mode(Mode.CALLS_OUT)
async def create_purchase(
    body: PurchaseCreate,
    unit: UnitDep,
    settings: SettingsDep,
    principal: JobsWriter,
) -> EnvelopeA[PurchaseCreatedOut]:
    """Start buying a credit pack: a Stripe PaymentIntent for the current workspace. Pay it on
    `payUrl`, with Stripe.js and `clientSecret`, or with `POST .../pay`; the credits arrive when
    Stripe's webhook confirms the payment. Organizations: owners and admins only."""
    plan = await service.plan_purchase(await unit.session(), principal, body.packId)
    customer = plan.customer_id
    if customer is None:
        customer = await unit.call_out(
            stripe_api.create_customer(
                settings, workspace_id=plan.workspace_id, name=plan.customer_name, email=plan.email
            )
        )
    intent = await unit.call_out(
        stripe_api.create_intent(
            settings,
            purchase_id=plan.purchase_id,
            workspace_id=plan.workspace_id,
            amount=plan.price,
            currency=plan.currency,
            customer=customer,
        )
    )
    row = await service.record_purchase(await unit.write(), plan, customer, intent)
    data = PurchaseCreatedOut.model_validate(
        {
            **dict(PurchaseOut.model_validate(row)),  # the fields' values, not serialized
            "client_secret": intent.client_secret,
            "publishable_key": settings.stripe_publishable_key,
            "pay_url": f"{settings.public_url.rstrip('/')}/credits/buy/{row.id}",
        }
    )
    return EnvelopeA[PurchaseCreatedOut](data=data)


@router.get(
    "/credits/purchases/{purchaseId}",
    response_model=EnvelopeA[PurchaseOut],
    operation_id="getPurchase",
)
async def get_purchase(
    purchase_id: PurchaseId, session: SessionDep, principal: Reader
) -> EnvelopeA[PurchaseOut]:
    """One purchase of the current workspace (its receipt)."""
    row = await service.get_purchase(session, principal, purchase_id)
    return EnvelopeA[PurchaseOut](data=PurchaseOut.model_validate(row))


@router.post(
    "/credits/purchases/{purchaseId}/pay",
    response_model=EnvelopeA[PaymentOut],
    operation_id="payPurchase",
    openapi_extra={"x-agora-errors": [402, 403, 409, 503]},
)
@mode(Mode.CALLS_OUT)
async def pay_purchase(
    purchase_id: PurchaseId,
    body: PurchasePay,
    unit: UnitDep,
    settings: SettingsDep,
    principal: JobsWriter,
) -> EnvelopeA[PaymentOut]:
    """Pay an open purchase with a card token from Stripe.js (`createToken`): the card is saved
    on the workspace's Stripe customer and the PaymentIntent confirmed. A declined card answers
    200 with the purchase `failed` and Stripe's words in `failureMessage` (the attempt was made
    and is recorded; a declined purchase is final). The credits arrive only with Stripe's
    webhook."""
    found = await service.plan_payment(await unit.session(), principal, purchase_id)
    intent_id, customer = found.stripe_payment_intent_id, found.stripe_customer_id
    try:
        result = await unit.call_out(
            stripe_api.pay_with_token(
                settings, intent_id=intent_id, customer=customer, token=body.cardToken
            )
        )
        declined = result.error
    except PaymentRequired as exc:
        result, declined = None, exc.message
    session = await unit.write()
    if declined or result is None:
        await service.record_decline(session, principal, purchase_id, declined or "declined")
        row = await service.get_purchase(session, principal, purchase_id)
        data = PaymentOut.model_validate(
            {**dict(PurchaseOut.model_validate(row)), "next_action": None, "client_secret": None}
        )
        return EnvelopeA[PaymentOut](data=data)
    row = await service.record_payment(session, principal, purchase_id, result)
    action = "confirm_card_payment" if result.status == "requires_action" else None
    data = PaymentOut.model_validate(
        {
            **dict(PurchaseOut.model_validate(row)),  # the fields' values, not serialized
            "next_action": action,
            "client_secret": result.client_secret if action else None,
        }
    )
    return EnvelopeA[PaymentOut](data=data)


@router.post(
    "/billing/stripe/webhook",
    response_model=WebhookOut,
    operation_id="stripeWebhook",
    openapi_extra={"x-agora-errors": [503]},
)
@public
async def stripe_webhook(
    request: Request, session: SessionDep, settings: SettingsDep
) -> WebhookOut:
    """Stripe's webhook (no credentials: the `Stripe-Signature` header is checked with the
    webhook secret). Credits are granted, and taken back, only here; a replayed event changes
    nothing. 400 for a missing or wrong signature."""
    payload = await request.body()
    event = stripe_api.verify(settings, payload, request.headers.get("stripe-signature"))
    return WebhookOut(outcome=await service.apply_event(session, event))


# ---- spending caps -------------------------------------------------------------------------


@router.get(
    "/credits/caps", response_model=EnvelopeA[list[CapOut]], operation_id="listSpendingCaps"
)
async def list_caps(session: SessionDep, principal: Reader) -> EnvelopeA[list[CapOut]]:
    """The current organization workspace's monthly spending caps and what each has spent."""
    rows = await caps.list_caps(session, principal)
    return EnvelopeA[list[CapOut]](data=[CapOut.model_validate(c) for c in rows])


@router.put(
    "/credits/caps",
    response_model=EnvelopeA[CapOut],
    operation_id="setSpendingCap",
    openapi_extra={"x-agora-errors": [403]},
)
async def set_cap(body: CapSet, session: SessionDep, principal: ProfileWriter) -> EnvelopeA[CapOut]:
    """Set the monthly cap of one member (`userId`) or one project (`projectId`) of the
    organization (owners only). A job that would pass a cap is refused with 402 naming it."""
    view = await caps.set_cap(
        session,
        principal,
        user_id=str(body.userId) if body.userId else None,
        project_id=str(body.projectId) if body.projectId else None,
        monthly_limit=body.monthlyLimit,
    )
    return EnvelopeA[CapOut](data=CapOut.model_validate(view))


@router.delete(
    "/credits/caps/{capId}",
    status_code=204,
    operation_id="deleteSpendingCap",
    openapi_extra={"x-agora-errors": [403]},
)
async def delete_cap(cap_id: CapId, session: SessionDep, principal: ProfileWriter) -> None:
    """Remove a cap (owners only)."""
    await caps.remove_cap(session, principal, cap_id)


@router.put(
    "/credits/low-balance",
    response_model=EnvelopeA[LowBalanceOut],
    operation_id="setLowBalanceThreshold",
    openapi_extra={"x-agora-errors": [403]},
)
async def set_low_balance(
    body: LowBalanceSet, session: SessionDep, principal: ProfileWriter
) -> EnvelopeA[LowBalanceOut]:
    """The current workspace's low-balance threshold: below it the web app shows a banner and
    the payer gets one mail per fall below it. Those who buy the workspace's credits set it."""
    value = await low_balance.set_threshold(session, principal, body.threshold)
    return EnvelopeA[LowBalanceOut](data=LowBalanceOut(threshold=value))


# ---- operator ------------------------------------------------------------------------------


@router.get(
    "/admin/credit-packs",
    response_model=EnvelopeA[list[PackOut]],
    operation_id="adminListPacks",
    tags=["admin"],
)
async def admin_list_packs(session: SessionDep, _admin: Admin) -> EnvelopeA[list[PackOut]]:
    """Every credit pack, archived ones included."""
    packs = await service.list_packs(session, include_archived=True)
    return EnvelopeA[list[PackOut]](data=[PackOut.model_validate(p) for p in packs])


@router.post(
    "/admin/credit-packs",
    status_code=201,
    response_model=EnvelopeA[PackOut],
    operation_id="adminCreatePack",
    tags=["admin"],
)
async def admin_create_pack(
    body: PackCreate, session: SessionDep, _admin: Admin
) -> EnvelopeA[PackOut]:
    """Put a credit pack on sale: credits (display units) for a price in minor units."""
    pack = await service.create_pack(
        session, name=body.name, credits=body.credits, price=body.price, currency=body.currency
    )
    return EnvelopeA[PackOut](data=PackOut.model_validate(pack))


@router.patch(
    "/admin/credit-packs/{packId}",
    response_model=EnvelopeA[PackOut],
    operation_id="adminUpdatePack",
    tags=["admin"],
)
async def admin_update_pack(
    pack_id: PackId, body: PackUpdate, session: SessionDep, _admin: Admin
) -> EnvelopeA[PackOut]:
    """Rename a pack, or take it off sale (`active: false`) and back."""
    pack = await service.update_pack(session, pack_id, active=body.active, name=body.name)
    return EnvelopeA[PackOut](data=PackOut.model_validate(pack))
