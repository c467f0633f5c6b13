from __future__ import annotations

from datetime import datetime
from decimal import Decimal
from typing import TYPE_CHECKING, Any
from uuid import UUID

from pydantic import Field, computed_field

from agora.kit.envelopes import ApiModel
from agora.kit.money import shown_price
from agora.kit.schemas import Credits, Schema, UtcDateTime

MINOR_UNITS = (
    "In the currency's minor units, as Stripe counts them: cents for EUR and USD, yen for JPY "
    "(zero-decimal), fils for KWD (three decimals; docs/billing.md)."
)


class Priced(Schema):
    """Adds to a schema with ``price`` (minor units) and ``currency`` the price as people read
    it (``kit.money.shown_price``, the one formatter of money)."""

    if TYPE_CHECKING:  # the subclass's fields
        price: int
        currency: str

    @computed_field(  # type: ignore[prop-decorator]
        description="The price as shown to people: `10.00 EUR`, `1000 JPY`, `1.500 KWD`."
    )
    @property
    def display_price(self) -> str:
        return shown_price(self.price, self.currency)


class PackOut(Priced):
    """Read from a ``CreditPack`` row."""

    id: UUID
    name: str
    credits: Credits = Field(description="Credits the pack adds to the balance.")
    price: int = Field(description=MINOR_UNITS)
    currency: str = Field(description="ISO 4217 code, lower case (Stripe's form).")
    active: bool = Field(description="On sale; archived packs stay for old purchases.")


class PackCreate(ApiModel):
    name: str = Field(min_length=1, max_length=100)
    credits: Decimal = Field(gt=0, description="Credits in the pack, in display units.")
    price: int = Field(
        gt=0,
        le=99_999_999,
        description=MINOR_UNITS + " At least Stripe's minimum charge in the currency; a "
        "three-decimal currency's price ends in 0.",
    )
    currency: str = Field(min_length=3, max_length=3, description="ISO 4217, e.g. eur.")


class PackUpdate(ApiModel):
    name: str | None = Field(default=None, min_length=1, max_length=100)
    active: bool | None = None


class PurchaseCreate(ApiModel):
    packId: UUID = Field(description="The credit pack to buy (GET /v1/credits/packs).")
    promotionCode: str | None = Field(
        default=None,
        max_length=40,
        description="A promotion code: bonus credits or a percentage off the pack's price.",
    )


class PromotionCodeCreate(ApiModel):
    code: str = Field(min_length=3, max_length=40, description="Letters, digits, - or _")
    bonusCredits: Decimal | None = Field(
        default=None, gt=0, description="Credits added to the pack (display units)"
    )
    percentOff: int | None = Field(default=None, ge=1, le=100, description="Off the pack's price")
    maxUses: int | None = Field(default=None, ge=1, le=1_000_000, description="In total")
    perPerson: int | None = Field(default=1, ge=1, le=1000, description="null: no limit")
    expiresAt: datetime | None = None


class PromotionCodeUpdate(ApiModel):
    active: bool


class PromotionCodeOut(Schema):
    id: UUID
    code: str
    bonus_credits: Credits
    percent_off: int
    max_uses: int | None
    per_person: int | None
    uses: int
    expires_at: UtcDateTime | None
    active: bool


class PurchasePay(ApiModel):
    paymentMethod: str = Field(
        min_length=4,
        max_length=255,
        pattern=r"^pm_[A-Za-z0-9_]+$",
        description="A PaymentMethod id (`pm_…`) from Stripe.js `createPaymentMethod`.",
    )


class PurchaseOut(Priced):
    """Read from a ``CreditPurchase`` row."""

    id: UUID
    workspace_id: UUID
    pack_id: UUID | None
    credits: Credits
    price: int = Field(description=MINOR_UNITS)
    currency: str
    status: str = Field(
        description="pending | failed | paid | partially_refunded | refunded | disputed"
    )
    stripe_payment_intent_id: str
    stripe_charge_id: str | None
    receipt_url: str | None = Field(description="Stripe's receipt, once Stripe has sent it.")
    failure_message: str | None
    refunded: int = Field(description="Minor units refunded or disputed.")
    clawed_back: Credits = Field(description="Credits taken back after a refund or dispute.")
    shortfall: Credits = Field(description="Credits that could not be taken back (spent).")
    bonus_credits: Credits = Field(
        description="A promotion code's bonus credits, granted with the purchase's credits."
    )
    discount: int = Field(description="Minor units a promotion code took off the pack's price.")
    paid_at: UtcDateTime | None
    created_at: UtcDateTime


def purchase_fields(row: object) -> dict[str, Any]:
    """A purchase's fields' values (not serialised), for an answer that extends ``PurchaseOut``."""
    return dict(PurchaseOut.model_validate(row))


class PurchaseCreatedOut(PurchaseOut):
    client_secret: str = Field(description="The PaymentIntent's client secret, for Stripe.js.")
    publishable_key: str = Field(description="Stripe's publishable key for Stripe.js.")
    pay_url: str = Field(description="The web page that takes the payment.")


class PaymentOut(PurchaseOut):
    next_action: str | None = Field(
        description="When the card needs 3-D Secure, Stripe's `next_action.type`: "
        "`redirect_to_url` (send the buyer to `redirectUrl`, Stripe's page; it returns them to "
        "the receipt) or another one for Stripe.js `handleNextAction(clientSecret)`; null "
        "otherwise. The credits arrive with Stripe's webhook either way."
    )
    client_secret: str | None
    redirect_url: str | None = Field(description="Stripe's 3-D Secure page, for the buyer.")


class WebhookOut(Schema):
    received: bool = True
    outcome: str = Field(description="granted | duplicate | ignored | clawed_back | …")


class CapSet(ApiModel):
    userId: UUID | None = Field(default=None, description="A member of the organization.")
    projectId: UUID | None = Field(default=None, description="A project of the organization.")
    monthlyLimit: Decimal = Field(ge=0, description="Credits per calendar month (UTC).")


class CapOut(Schema):
    """Read from ``billing.caps.CapView``."""

    id: UUID
    user_id: UUID | None
    project_id: UUID | None
    monthly_limit: Credits
    spent_this_month: Credits


class LowBalanceSet(ApiModel):
    threshold: Decimal | None = Field(
        description="Warn below this many credits; null: below the price of the last job."
    )


class LowBalanceOut(Schema):
    threshold: Credits | None


class OnboardingLinkOut(Schema):
    url: str = Field(description="Stripe's onboarding page (single-use, minutes long)")
