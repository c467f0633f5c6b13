from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.earnings_agent_out import EarningsAgentOut
    from ..models.earnings_balance_out import EarningsBalanceOut
    from ..models.payout_account_out import PayoutAccountOut
    from ..models.payout_out import PayoutOut


T = TypeVar("T", bound="EarningsOut")


@_attrs_define
class EarningsOut:
    """
    Attributes:
        agents (list[EarningsAgentOut]):
        balances (list[EarningsBalanceOut]): Per currency
        credit_value (int): Minor units of the currency one credit is worth now
        currency (str): The payout currency now in force
        holdback_days (float):
        payout_account (PayoutAccountOut):
        payouts (list[PayoutOut]): Payouts made, newest first (at most 24)
    """

    agents: list[EarningsAgentOut]
    balances: list[EarningsBalanceOut]
    credit_value: int
    currency: str
    holdback_days: float
    payout_account: PayoutAccountOut
    payouts: list[PayoutOut]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        agents = []
        for agents_item_data in self.agents:
            agents_item = agents_item_data.to_dict()
            agents.append(agents_item)

        balances = []
        for balances_item_data in self.balances:
            balances_item = balances_item_data.to_dict()
            balances.append(balances_item)

        credit_value = self.credit_value

        currency = self.currency

        holdback_days = self.holdback_days

        payout_account = self.payout_account.to_dict()

        payouts = []
        for payouts_item_data in self.payouts:
            payouts_item = payouts_item_data.to_dict()
            payouts.append(payouts_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "agents": agents,
                "balances": balances,
                "creditValue": credit_value,
                "currency": currency,
                "holdbackDays": holdback_days,
                "payoutAccount": payout_account,
                "payouts": payouts,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.earnings_agent_out import EarningsAgentOut
        from ..models.earnings_balance_out import EarningsBalanceOut
        from ..models.payout_account_out import PayoutAccountOut
        from ..models.payout_out import PayoutOut

        d = dict(src_dict)
        agents = []
        _agents = d.pop("agents")
        for agents_item_data in _agents:
            agents_item = EarningsAgentOut.from_dict(agents_item_data)

            agents.append(agents_item)

        balances = []
        _balances = d.pop("balances")
        for balances_item_data in _balances:
            balances_item = EarningsBalanceOut.from_dict(balances_item_data)

            balances.append(balances_item)

        credit_value = d.pop("creditValue")

        currency = d.pop("currency")

        holdback_days = d.pop("holdbackDays")

        payout_account = PayoutAccountOut.from_dict(d.pop("payoutAccount"))

        payouts = []
        _payouts = d.pop("payouts")
        for payouts_item_data in _payouts:
            payouts_item = PayoutOut.from_dict(payouts_item_data)

            payouts.append(payouts_item)

        earnings_out = cls(
            agents=agents,
            balances=balances,
            credit_value=credit_value,
            currency=currency,
            holdback_days=holdback_days,
            payout_account=payout_account,
            payouts=payouts,
        )

        earnings_out.additional_properties = d
        return earnings_out

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
