from __future__ import annotations

from decimal import Decimal
from typing import Any
from uuid import UUID

from pydantic import Field

from agora.kit.envelopes import ApiModel
from agora.kit.schemas import Credits, Schema, UtcDateTime


class PackOut(Schema):
    """Read from a ``CreditPack`` row."""

    id: UUID
    name: str
    credits: Credits = Field(description="Credits the pack adds to the balance.")
    price: int = Field(description="Price in the currency's minor units (cents).")
    currency: str = Field(description="ISO 4217 code, lower case (Stripe's form).")
    active: bool = Field(description="On sale; archived packs stay for old purchases.")


class PackCreate(ApiModel):
    name: str = Field(min_length=1, max_length=100)
    credits: Decimal = Field(gt=0, description="Credits in the pack, in display units.")
    price: int = Field(gt=0, le=99_999_999, description="Minor units (cents).")
    currency: str = Field(min_length=3, max_length=3, description="ISO 4217, e.g. eur.")


class PackUpdate(ApiModel):
    name: str | None = Field(default=None, min_length=1, max_length=100)
    active: bool | None = None


class PurchaseCreate(ApiModel):
    packId: UUID = Field(description="The credit pack to buy (GET /v1/credits/packs).")


class PurchasePay(ApiModel):
    cardToken: str = Field(
        min_length=1, max_length=255, description="A card token from Stripe.js `createToken`."
    )


class PurchaseOut(Schema):
    """Read from a ``CreditPurchase`` row."""

    id: UUID
    workspace_id: UUID
    pack_id: UUID | None
    credits: Credits
    price: int = Field(description="Minor units (cents).")
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
        description="`confirm_card_payment` when the card needs 3-D Secure: call Stripe.js "
        "`confirmCardPayment(clientSecret)`; null otherwise."
    )
    client_secret: str | None


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
