from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="PayoutAccountOut")


@_attrs_define
class PayoutAccountOut:
    """
    Attributes:
        connected (bool):
        details_submitted (bool):
        disabled_reason (None | str): Stripe's requirements.disabled_reason
        payouts_enabled (bool):
        requirements_due (list[str]): Stripe's requirements currently due
        state (str): not_connected | onboarding | restricted | ready
        stripe_account_id (None | str):
        words (str): The state in words, with why it cannot be paid
    """

    connected: bool
    details_submitted: bool
    disabled_reason: None | str
    payouts_enabled: bool
    requirements_due: list[str]
    state: str
    stripe_account_id: None | str
    words: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        connected = self.connected

        details_submitted = self.details_submitted

        disabled_reason: None | str
        disabled_reason = self.disabled_reason

        payouts_enabled = self.payouts_enabled

        requirements_due = self.requirements_due

        state = self.state

        stripe_account_id: None | str
        stripe_account_id = self.stripe_account_id

        words = self.words

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "connected": connected,
                "detailsSubmitted": details_submitted,
                "disabledReason": disabled_reason,
                "payoutsEnabled": payouts_enabled,
                "requirementsDue": requirements_due,
                "state": state,
                "stripeAccountId": stripe_account_id,
                "words": words,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        connected = d.pop("connected")

        details_submitted = d.pop("detailsSubmitted")

        def _parse_disabled_reason(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        disabled_reason = _parse_disabled_reason(d.pop("disabledReason"))

        payouts_enabled = d.pop("payoutsEnabled")

        requirements_due = cast(list[str], d.pop("requirementsDue"))

        state = d.pop("state")

        def _parse_stripe_account_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        stripe_account_id = _parse_stripe_account_id(d.pop("stripeAccountId"))

        words = d.pop("words")

        payout_account_out = cls(
            connected=connected,
            details_submitted=details_submitted,
            disabled_reason=disabled_reason,
            payouts_enabled=payouts_enabled,
            requirements_due=requirements_due,
            state=state,
            stripe_account_id=stripe_account_id,
            words=words,
        )

        payout_account_out.additional_properties = d
        return payout_account_out

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
