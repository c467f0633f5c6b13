"""Credit packs, purchases and the Stripe webhook (key family; docs/billing.md); a seller's
Stripe Connect account and the operator's list of payouts (docs/billing.md, "Paying sellers").

Buying and paying call Stripe: they are ``calls_out`` routes (kit/units.py) around one use case
each (``service.start_purchase``, ``service.pay_purchase``), which read, call Stripe with no
transaction open, then write.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated

from fastapi import Path, Query, Request

from agora.audit import service as audit
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
from agora.billing import caps, payouts, promotions, service, stripe_api, webhook
from agora.billing import warnings as low_balance
from agora.billing.schemas import (
    CapOut,
    CapSet,
    LowBalanceOut,
    LowBalanceSet,
    OnboardingLinkOut,
    PackCreate,
    PackOut,
    PackUpdate,
    PaymentOut,
    PromotionCodeCreate,
    PromotionCodeOut,
    PromotionCodeUpdate,
    PurchaseCreate,
    PurchaseCreatedOut,
    PurchaseOut,
    PurchasePay,
    WebhookOut,
    purchase_fields,
)
from agora.developer.earnings import payout_account
from agora.developer.schemas import PayoutAccountOut, PayoutOut
from agora.kit.envelopes import EnvelopeA, EnvelopeB, meta_b
from agora.kit.families import bearer_router, key_router
from agora.kit.openapi import errors
from agora.kit.units import Mode, mode

router = key_router(tags=["credits"])
# A seller's Stripe Connect account: bearer family, beside /v1/developer/earnings
developer_router = bearer_router(prefix="/developer", tags=["developer"])
# This domain's path ids. They stay ``str`` in the path: a malformed id answers the same 404 as
# an unknown one (ids are opaque), which a ``UUID`` path type would turn into a 400.
PurchaseId = Annotated[str, Path(alias="purchaseId")]
PackId = Annotated[str, Path(alias="packId")]
CapId = Annotated[str, Path(alias="capId")]


def _packs(packs: Sequence[object]) -> EnvelopeA[list[PackOut]]:
    return EnvelopeA[list[PackOut]](data=[PackOut.model_validate(p) for p in packs])


@router.get("/credits/packs", operation_id="listPacks")
async def list_packs(session: SessionDep, _principal: Reader) -> EnvelopeA[list[PackOut]]:
    """The credit packs on sale, cheapest first."""
    return _packs(await service.list_packs(session))


@router.get("/credits/purchases", operation_id="listPurchases")
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
    operation_id="createPurchase",
    openapi_extra=errors(403, 503),
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
    Stripe's webhook confirms the payment. Organizations: owners and admins only. A
    `promotionCode` adds bonus credits or takes a percentage off; one that is unknown, expired
    or used up is 400 naming `promotionCode`."""
    started = await service.start_purchase(
        unit, principal, settings, body.packId, body.promotionCode
    )
    data = PurchaseCreatedOut.model_validate(
        {
            **purchase_fields(started.purchase),
            "client_secret": started.client_secret,
            "publishable_key": settings.stripe.publishable_key,
            "pay_url": started.pay_url,
        }
    )
    return EnvelopeA[PurchaseCreatedOut](data=data)


@router.get("/credits/purchases/{purchaseId}", operation_id="getPurchase")
async def get_purchase(
    purchase_id: PurchaseId, session: SessionDep, principal: Reader
) -> EnvelopeA[PurchaseOut]:
    """One purchase of the current workspace (its receipt)."""
    row = await service.get_purchase(session, principal, purchase_id)
    return EnvelopeA[PurchaseOut](data=PurchaseOut.model_validate(row))


@router.post(
    "/credits/purchases/{purchaseId}/pay",
    operation_id="payPurchase",
    openapi_extra=errors(402, 403, 409, 503),
)
@mode(Mode.CALLS_OUT)
async def pay_purchase(
    purchase_id: PurchaseId,
    body: PurchasePay,
    unit: UnitDep,
    settings: SettingsDep,
    principal: JobsWriter,
) -> EnvelopeA[PaymentOut]:
    """Pay an open purchase with a PaymentMethod from Stripe.js (`createPaymentMethod`): the
    PaymentIntent is confirmed with it. A card that needs 3-D Secure answers `nextAction`
    (`redirect_to_url`: send the buyer to `redirectUrl`). A declined card answers 200 with the
    purchase `failed` and Stripe's words in `failureMessage` (the attempt was made and is
    recorded; a declined purchase is final). The credits arrive only with Stripe's webhook."""
    paid = await service.pay_purchase(unit, principal, settings, purchase_id, body.paymentMethod)
    data = PaymentOut.model_validate(
        {
            **purchase_fields(paid.purchase),
            "next_action": paid.next_action,
            "client_secret": paid.client_secret,
            "redirect_url": paid.redirect_url,
        }
    )
    return EnvelopeA[PaymentOut](data=data)


@router.post("/billing/stripe/webhook", operation_id="stripeWebhook", openapi_extra=errors(503))
@public
async def stripe_webhook(
    request: Request, session: SessionDep, settings: SettingsDep
) -> WebhookOut:
    """Stripe's webhook (no credentials: the `Stripe-Signature` header is checked with the
    webhook secret). Credits are granted, and taken back, only here; a replayed event changes
    nothing. 400 for a missing or wrong signature."""
    payload = await request.body()
    event = stripe_api.verify(settings, payload, request.headers.get("stripe-signature"))
    return WebhookOut(outcome=await webhook.apply_event(session, event))


# ---- spending caps -------------------------------------------------------------------------


@router.get("/credits/caps", operation_id="listSpendingCaps")
async def list_caps(session: SessionDep, principal: Reader) -> EnvelopeA[list[CapOut]]:
    """The current organization workspace's monthly spending caps and what each has spent."""
    rows = await caps.list_caps(session, principal)
    return EnvelopeA[list[CapOut]](data=[CapOut.model_validate(c) for c in rows])


@router.put("/credits/caps", operation_id="setSpendingCap", openapi_extra=errors(403))
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
    openapi_extra=errors(403),
)
async def delete_cap(cap_id: CapId, session: SessionDep, principal: ProfileWriter) -> None:
    """Remove a cap (owners only)."""
    await caps.remove_cap(session, principal, cap_id)


@router.put(
    "/credits/low-balance",
    operation_id="setLowBalanceThreshold",
    openapi_extra=errors(403),
)
async def set_low_balance(
    body: LowBalanceSet, session: SessionDep, principal: ProfileWriter
) -> EnvelopeA[LowBalanceOut]:
    """The current workspace's low-balance threshold: below it the web app shows a banner and
    the payer gets one mail per fall below it. Those who buy the workspace's credits set it."""
    value = await low_balance.set_threshold(session, principal, body.threshold)
    return EnvelopeA[LowBalanceOut](data=LowBalanceOut(threshold=value))


# ---- operator ------------------------------------------------------------------------------


@router.get("/admin/credit-packs", operation_id="adminListPacks", tags=["admin"])
async def admin_list_packs(session: SessionDep, _admin: Admin) -> EnvelopeA[list[PackOut]]:
    """Every credit pack, archived ones included."""
    return _packs(await service.list_packs(session, include_archived=True))


@router.post("/admin/credit-packs", status_code=201, operation_id="adminCreatePack", tags=["admin"])
async def admin_create_pack(
    body: PackCreate, session: SessionDep, _admin: Admin
) -> EnvelopeA[PackOut]:
    """Put a credit pack on sale: credits (display units) for a price in minor units."""
    pack = await service.create_pack(
        session, name=body.name, credits=body.credits, price=body.price, currency=body.currency
    )
    return EnvelopeA[PackOut](data=PackOut.model_validate(pack))


@router.patch("/admin/credit-packs/{packId}", operation_id="adminUpdatePack", tags=["admin"])
async def admin_update_pack(
    pack_id: PackId, body: PackUpdate, session: SessionDep, _admin: Admin
) -> EnvelopeA[PackOut]:
    """Rename a pack, or take it off sale (`active: false`) and back."""
    pack = await service.update_pack(session, pack_id, active=body.active, name=body.name)
    return EnvelopeA[PackOut](data=PackOut.model_validate(pack))


@router.get("/admin/promotion-codes", operation_id="adminListPromotionCodes", tags=["admin"])
async def admin_list_codes(session: SessionDep, _admin: Admin) -> EnvelopeA[list[PromotionCodeOut]]:
    """Every promotion code, newest first (at most 200), with its uses."""
    rows = await promotions.list_codes(session)
    return EnvelopeA[list[PromotionCodeOut]](
        data=[PromotionCodeOut.model_validate(r) for r in rows]
    )


@router.post(
    "/admin/promotion-codes",
    status_code=201,
    operation_id="adminCreatePromotionCode",
    tags=["admin"],
)
async def admin_create_code(
    body: PromotionCodeCreate, session: SessionDep, admin: Admin
) -> EnvelopeA[PromotionCodeOut]:
    """Create a promotion code: bonus credits or a percentage off a pack, limits in total and
    per person (default 1), an expiry."""
    row = await promotions.create_code(
        session,
        audit.actor_of(admin, operator=True),
        code=body.code,
        bonus_credits=body.bonusCredits,
        percent_off=body.percentOff,
        max_uses=body.maxUses,
        per_person=body.perPerson,
        expires_at=body.expiresAt,
    )
    return EnvelopeA[PromotionCodeOut](data=PromotionCodeOut.model_validate(row))


@router.patch(
    "/admin/promotion-codes/{codeId}",
    operation_id="adminUpdatePromotionCode",
    tags=["admin"],
    openapi_extra=errors(404),
)
async def admin_update_code(
    code_id: Annotated[str, Path(alias="codeId", max_length=64)],
    body: PromotionCodeUpdate,
    session: SessionDep,
    admin: Admin,
) -> EnvelopeA[PromotionCodeOut]:
    """Switch a promotion code off (`active: false`) or on again."""
    actor = audit.actor_of(admin, operator=True)
    row = await promotions.set_active(session, actor, code_id, body.active)
    return EnvelopeA[PromotionCodeOut](data=PromotionCodeOut.model_validate(row))


# ---- paying sellers ---------------------------------------------------------------------------


@router.get("/admin/payouts", operation_id="adminListPayouts", tags=["admin"])
async def admin_list_payouts(
    session: SessionDep,
    _admin: Admin,
    status: Annotated[
        str | None, Query(pattern="^(pending|paid|failed|reversed)$", description="Only these")
    ] = None,
    limit: Annotated[int, Query(ge=1, le=500)] = 100,
) -> EnvelopeA[list[PayoutOut]]:
    """Payouts to sellers, newest first: pending (claimed, Stripe not yet answered), paid,
    failed (Stripe refused: the amount is back in the seller's balance) or reversed."""
    rows = await payouts.list_payouts(session, status, limit)
    return EnvelopeA[list[PayoutOut]](data=[PayoutOut.model_validate(r) for r in rows])


@developer_router.post(
    "/payout-account/onboarding-link",
    operation_id="developerPayoutOnboardingLink",
    openapi_extra=errors(403, 409, 503),
)
@mode(Mode.CALLS_OUT)
async def onboarding_link(
    request: Request, unit: UnitDep, settings: SettingsDep, principal: ProfileWriter
) -> EnvelopeB[OnboardingLinkOut]:
    """A single-use link to Stripe's onboarding of your Stripe Connect Express account (made
    the first time; your organization's in its workspace). Stripe sends you back to
    `/developer/payouts/return` (or `/developer/payouts/refresh` when the link expired); the
    account's state arrives with Stripe's `account.updated` webhook. 409 when the operator has
    not configured Stripe."""
    url = await payouts.start_onboarding(unit, principal, settings)
    return EnvelopeB[OnboardingLinkOut](data=OnboardingLinkOut(url=url), meta=meta_b(request))


@developer_router.post(
    "/payout-account/refresh", operation_id="developerPayoutAccountRefresh",
    openapi_extra=errors(503),
)  # fmt: skip
@mode(Mode.CALLS_OUT)
async def refresh(
    request: Request, unit: UnitDep, settings: SettingsDep, principal: ProfileWriter
) -> EnvelopeB[PayoutAccountOut]:
    """Read your Stripe account's state from Stripe now (details submitted, payouts enabled,
    requirements due), in a word and in words."""
    await payouts.refresh_account(unit, principal, settings)
    found = await payouts.connected(await unit.session(), principal)
    return EnvelopeB[PayoutAccountOut](data=payout_account(found), meta=meta_b(request))
