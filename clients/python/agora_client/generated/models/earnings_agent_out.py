from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="EarningsAgentOut")


@_attrs_define
class EarningsAgentOut:
    """
    Attributes:
        agent_id (None | UUID):
        credits_ (float):
        currency (str):
        name (str):
        payable (int):
        pending (int):
        pending_credits (float):
        total (int):
    """

    agent_id: None | UUID
    credits_: float
    currency: str
    name: str
    payable: int
    pending: int
    pending_credits: float
    total: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        agent_id: None | str
        if isinstance(self.agent_id, UUID):
            agent_id = str(self.agent_id)
        else:
            agent_id = self.agent_id

        credits_ = self.credits_

        currency = self.currency

        name = self.name

        payable = self.payable

        pending = self.pending

        pending_credits = self.pending_credits

        total = self.total

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "agentId": agent_id,
                "credits": credits_,
                "currency": currency,
                "name": name,
                "payable": payable,
                "pending": pending,
                "pendingCredits": pending_credits,
                "total": total,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_agent_id(data: object) -> None | UUID:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                agent_id_type_0 = UUID(data)

                return agent_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | UUID, data)

        agent_id = _parse_agent_id(d.pop("agentId"))

        credits_ = d.pop("credits")

        currency = d.pop("currency")

        name = d.pop("name")

        payable = d.pop("payable")

        pending = d.pop("pending")

        pending_credits = d.pop("pendingCredits")

        total = d.pop("total")

        earnings_agent_out = cls(
            agent_id=agent_id,
            credits_=credits_,
            currency=currency,
            name=name,
            payable=payable,
            pending=pending,
            pending_credits=pending_credits,
            total=total,
        )

        earnings_agent_out.additional_properties = d
        return earnings_agent_out

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
