from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="StatementLineOut")


@_attrs_define
class StatementLineOut:
    """
    Attributes:
        agent_id (None | UUID):
        currency (str):
        earned (int): Minor units
        earned_credits (float):
        fees (float): The marketplace fees kept on these jobs, in credits
        jobs (int): Captured jobs earned on
        name (str):
        net (int): earned + refunded (minor units)
        payouts (int | None): Payouts are per account, not per agent: always empty (see `payouts`)
        refunded (int): Minor units, zero or negative
        refunded_credits (float):
        refunded_jobs (int):
    """

    agent_id: None | UUID
    currency: str
    earned: int
    earned_credits: float
    fees: float
    jobs: int
    name: str
    net: int
    payouts: int | None
    refunded: int
    refunded_credits: float
    refunded_jobs: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        agent_id: None | str
        if isinstance(self.agent_id, UUID):
            agent_id = str(self.agent_id)
        else:
            agent_id = self.agent_id

        currency = self.currency

        earned = self.earned

        earned_credits = self.earned_credits

        fees = self.fees

        jobs = self.jobs

        name = self.name

        net = self.net

        payouts: int | None
        payouts = self.payouts

        refunded = self.refunded

        refunded_credits = self.refunded_credits

        refunded_jobs = self.refunded_jobs

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "agentId": agent_id,
                "currency": currency,
                "earned": earned,
                "earnedCredits": earned_credits,
                "fees": fees,
                "jobs": jobs,
                "name": name,
                "net": net,
                "payouts": payouts,
                "refunded": refunded,
                "refundedCredits": refunded_credits,
                "refundedJobs": refunded_jobs,
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

        currency = d.pop("currency")

        earned = d.pop("earned")

        earned_credits = d.pop("earnedCredits")

        fees = d.pop("fees")

        jobs = d.pop("jobs")

        name = d.pop("name")

        net = d.pop("net")

        def _parse_payouts(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        payouts = _parse_payouts(d.pop("payouts"))

        refunded = d.pop("refunded")

        refunded_credits = d.pop("refundedCredits")

        refunded_jobs = d.pop("refundedJobs")

        statement_line_out = cls(
            agent_id=agent_id,
            currency=currency,
            earned=earned,
            earned_credits=earned_credits,
            fees=fees,
            jobs=jobs,
            name=name,
            net=net,
            payouts=payouts,
            refunded=refunded,
            refunded_credits=refunded_credits,
            refunded_jobs=refunded_jobs,
        )

        statement_line_out.additional_properties = d
        return statement_line_out

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
