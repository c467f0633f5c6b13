from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="AgentFailuresOut")


@_attrs_define
class AgentFailuresOut:
    """
    Attributes:
        agent_id (str):
        failed (int):
        failure_rate (float):
        jobs (int):
        name (str):
    """

    agent_id: str
    failed: int
    failure_rate: float
    jobs: int
    name: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        agent_id = self.agent_id

        failed = self.failed

        failure_rate = self.failure_rate

        jobs = self.jobs

        name = self.name

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "agentId": agent_id,
                "failed": failed,
                "failureRate": failure_rate,
                "jobs": jobs,
                "name": name,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        agent_id = d.pop("agentId")

        failed = d.pop("failed")

        failure_rate = d.pop("failureRate")

        jobs = d.pop("jobs")

        name = d.pop("name")

        agent_failures_out = cls(
            agent_id=agent_id,
            failed=failed,
            failure_rate=failure_rate,
            jobs=jobs,
            name=name,
        )

        agent_failures_out.additional_properties = d
        return agent_failures_out

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
