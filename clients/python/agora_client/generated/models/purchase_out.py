from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="PurchaseOut")


@_attrs_define
class PurchaseOut:
    """Read from a ``CreditPurchase`` row.

    Attributes:
        bonus_credits (float): A promotion code's bonus credits, granted with the purchase's credits.
        clawed_back (float): Credits taken back after a refund or dispute.
        created_at (datetime.datetime):
        credits_ (float):
        currency (str):
        discount (int): Minor units a promotion code took off the pack's price.
        display_price (str): The price as shown to people: `10.00 EUR`, `1000 JPY`, `1.500 KWD`.
        failure_message (None | str):
        id (UUID):
        pack_id (None | UUID):
        paid_at (datetime.datetime | None):
        price (int): In the currency's minor units, as Stripe counts them: cents for EUR and USD, yen for JPY (zero-
            decimal), fils for KWD (three decimals; docs/billing.md).
        receipt_url (None | str): Stripe's receipt, once Stripe has sent it.
        refunded (int): Minor units refunded or disputed.
        shortfall (float): Credits that could not be taken back (spent).
        status (str): pending | failed | paid | partially_refunded | refunded | disputed
        stripe_charge_id (None | str):
        stripe_payment_intent_id (str):
        workspace_id (UUID):
    """

    bonus_credits: float
    clawed_back: float
    created_at: datetime.datetime
    credits_: float
    currency: str
    discount: int
    display_price: str
    failure_message: None | str
    id: UUID
    pack_id: None | UUID
    paid_at: datetime.datetime | None
    price: int
    receipt_url: None | str
    refunded: int
    shortfall: float
    status: str
    stripe_charge_id: None | str
    stripe_payment_intent_id: str
    workspace_id: UUID
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        bonus_credits = self.bonus_credits

        clawed_back = self.clawed_back

        created_at = self.created_at.isoformat()

        credits_ = self.credits_

        currency = self.currency

        discount = self.discount

        display_price = self.display_price

        failure_message: None | str
        failure_message = self.failure_message

        id = str(self.id)

        pack_id: None | str
        if isinstance(self.pack_id, UUID):
            pack_id = str(self.pack_id)
        else:
            pack_id = self.pack_id

        paid_at: None | str
        if isinstance(self.paid_at, datetime.datetime):
            paid_at = self.paid_at.isoformat()
        else:
            paid_at = self.paid_at

        price = self.price

        receipt_url: None | str
        receipt_url = self.receipt_url

        refunded = self.refunded

        shortfall = self.shortfall

        status = self.status

        stripe_charge_id: None | str
        stripe_charge_id = self.stripe_charge_id

        stripe_payment_intent_id = self.stripe_payment_intent_id

        workspace_id = str(self.workspace_id)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "bonusCredits": bonus_credits,
                "clawedBack": clawed_back,
                "createdAt": created_at,
                "credits": credits_,
                "currency": currency,
                "discount": discount,
                "displayPrice": display_price,
                "failureMessage": failure_message,
                "id": id,
                "packId": pack_id,
                "paidAt": paid_at,
                "price": price,
                "receiptUrl": receipt_url,
                "refunded": refunded,
                "shortfall": shortfall,
                "status": status,
                "stripeChargeId": stripe_charge_id,
                "stripePaymentIntentId": stripe_payment_intent_id,
                "workspaceId": workspace_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        bonus_credits = d.pop("bonusCredits")

        clawed_back = d.pop("clawedBack")

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        credits_ = d.pop("credits")

        currency = d.pop("currency")

        discount = d.pop("discount")

        display_price = d.pop("displayPrice")

        def _parse_failure_message(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        failure_message = _parse_failure_message(d.pop("failureMessage"))

        id = UUID(d.pop("id"))

        def _parse_pack_id(data: object) -> None | UUID:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                pack_id_type_0 = UUID(data)

                return pack_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | UUID, data)

        pack_id = _parse_pack_id(d.pop("packId"))

        def _parse_paid_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                paid_at_type_0 = datetime.datetime.fromisoformat(data)

                return paid_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        paid_at = _parse_paid_at(d.pop("paidAt"))

        price = d.pop("price")

        def _parse_receipt_url(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        receipt_url = _parse_receipt_url(d.pop("receiptUrl"))

        refunded = d.pop("refunded")

        shortfall = d.pop("shortfall")

        status = d.pop("status")

        def _parse_stripe_charge_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        stripe_charge_id = _parse_stripe_charge_id(d.pop("stripeChargeId"))

        stripe_payment_intent_id = d.pop("stripePaymentIntentId")

        workspace_id = UUID(d.pop("workspaceId"))

        purchase_out = cls(
            bonus_credits=bonus_credits,
            clawed_back=clawed_back,
            created_at=created_at,
            credits_=credits_,
            currency=currency,
            discount=discount,
            display_price=display_price,
            failure_message=failure_message,
            id=id,
            pack_id=pack_id,
            paid_at=paid_at,
            price=price,
            receipt_url=receipt_url,
            refunded=refunded,
            shortfall=shortfall,
            status=status,
            stripe_charge_id=stripe_charge_id,
            stripe_payment_intent_id=stripe_payment_intent_id,
            workspace_id=workspace_id,
        )

        purchase_out.additional_properties = d
        return purchase_out

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
