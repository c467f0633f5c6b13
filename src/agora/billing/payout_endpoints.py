"""A seller's Stripe Connect account, by REST (bearer family, beside ``/v1/developer/earnings``;
docs/billing.md, "Paying sellers"). Both call Stripe: ``calls_out`` routes around one use case
each (``payouts.start_onboarding``, ``payouts.refresh_account``)."""

from __future__ import annotations

from fastapi import Request

from agora.auth.dependencies import ProfileWriter, SettingsDep, UnitDep
from agora.billing import payouts
from agora.billing.schemas import OnboardingLinkOut
from agora.developer.earnings import payout_account
from agora.developer.schemas import PayoutAccountOut
from agora.kit.envelopes import EnvelopeB, meta_b
from agora.kit.families import bearer_router
from agora.kit.openapi import errors
from agora.kit.units import Mode, mode

router = bearer_router(prefix="/developer", tags=["developer"])


@router.post(
    "/payout-account/onboarding-link",
    operation_id="developerPayoutOnboardingLink",
    openapi_extra=errors(503),
)
@mode(Mode.CALLS_OUT)
async def onboarding_link(
    request: Request, unit: UnitDep, settings: SettingsDep, principal: ProfileWriter
) -> EnvelopeB[OnboardingLinkOut]:
    """A single-use link to Stripe's onboarding of your Stripe Connect Express account (made
    the first time; your organization's in its workspace). Stripe sends you back to
    `/developer/payouts/return` (or `/developer/payouts/refresh` when the link expired); the
    account's state arrives with Stripe's `account.updated` webhook."""
    url = await payouts.start_onboarding(unit, principal, settings)
    return EnvelopeB[OnboardingLinkOut](data=OnboardingLinkOut(url=url), meta=meta_b(request))


@router.post(
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
