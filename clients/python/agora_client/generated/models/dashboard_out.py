from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.agent_failures_out import AgentFailuresOut
    from ..models.dashboard_out_faileddeliveries import DashboardOutFaileddeliveries
    from ..models.dashboard_out_jobsperstatus import DashboardOutJobsperstatus


T = TypeVar("T", bound="DashboardOut")


@_attrs_define
class DashboardOut:
    """
    Attributes:
        agents (list[AgentFailuresOut]):
        dispatch_lag_seconds (float):
        failed_deliveries (DashboardOutFaileddeliveries):
        jobs_per_status (DashboardOutJobsperstatus):
        open_disputes (int):
        open_refunds (int):
        pending_reviews (int):
        quarantined (int):
        since (datetime.datetime):
    """

    agents: list[AgentFailuresOut]
    dispatch_lag_seconds: float
    failed_deliveries: DashboardOutFaileddeliveries
    jobs_per_status: DashboardOutJobsperstatus
    open_disputes: int
    open_refunds: int
    pending_reviews: int
    quarantined: int
    since: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        agents = []
        for agents_item_data in self.agents:
            agents_item = agents_item_data.to_dict()
            agents.append(agents_item)

        dispatch_lag_seconds = self.dispatch_lag_seconds

        failed_deliveries = self.failed_deliveries.to_dict()

        jobs_per_status = self.jobs_per_status.to_dict()

        open_disputes = self.open_disputes

        open_refunds = self.open_refunds

        pending_reviews = self.pending_reviews

        quarantined = self.quarantined

        since = self.since.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "agents": agents,
                "dispatchLagSeconds": dispatch_lag_seconds,
                "failedDeliveries": failed_deliveries,
                "jobsPerStatus": jobs_per_status,
                "openDisputes": open_disputes,
                "openRefunds": open_refunds,
                "pendingReviews": pending_reviews,
                "quarantined": quarantined,
                "since": since,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.agent_failures_out import AgentFailuresOut
        from ..models.dashboard_out_faileddeliveries import DashboardOutFaileddeliveries
        from ..models.dashboard_out_jobsperstatus import DashboardOutJobsperstatus

        d = dict(src_dict)
        agents = []
        _agents = d.pop("agents")
        for agents_item_data in _agents:
            agents_item = AgentFailuresOut.from_dict(agents_item_data)

            agents.append(agents_item)

        dispatch_lag_seconds = d.pop("dispatchLagSeconds")

        failed_deliveries = DashboardOutFaileddeliveries.from_dict(d.pop("failedDeliveries"))

        jobs_per_status = DashboardOutJobsperstatus.from_dict(d.pop("jobsPerStatus"))

        open_disputes = d.pop("openDisputes")

        open_refunds = d.pop("openRefunds")

        pending_reviews = d.pop("pendingReviews")

        quarantined = d.pop("quarantined")

        since = datetime.datetime.fromisoformat(d.pop("since"))

        dashboard_out = cls(
            agents=agents,
            dispatch_lag_seconds=dispatch_lag_seconds,
            failed_deliveries=failed_deliveries,
            jobs_per_status=jobs_per_status,
            open_disputes=open_disputes,
            open_refunds=open_refunds,
            pending_reviews=pending_reviews,
            quarantined=quarantined,
            since=since,
        )

        dashboard_out.additional_properties = d
        return dashboard_out

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
