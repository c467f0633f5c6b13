from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.schedule_out_inputdata import ScheduleOutInputdata
    from ..models.schedule_out_task import ScheduleOutTask


T = TypeVar("T", bound="ScheduleOut")


@_attrs_define
class ScheduleOut:
    """
    Attributes:
        agent_id (UUID):
        consecutive_failures (int):
        created_at (datetime.datetime):
        cron (None | str):
        ends_at (datetime.datetime | None):
        failure_limit (int):
        id (UUID):
        input_data (ScheduleOutInputdata):
        interval_seconds (int | None):
        last_run_at (datetime.datetime | None):
        max_accepted_credits (float | None):
        missed_policy (str):
        monthly_budget (float | None):
        name (str):
        next_run_at (datetime.datetime | None):
        starts_at (datetime.datetime):
        state (str): active, paused or ended
        state_reason (None | str):
        timezone (str):
        updated_at (datetime.datetime):
        user_id (UUID):
        workspace_id (UUID):
        agent_version (int | None | Unset): The pinned version; null: follows the latest compatible one.
        task (None | ScheduleOutTask | Unset):
    """

    agent_id: UUID
    consecutive_failures: int
    created_at: datetime.datetime
    cron: None | str
    ends_at: datetime.datetime | None
    failure_limit: int
    id: UUID
    input_data: ScheduleOutInputdata
    interval_seconds: int | None
    last_run_at: datetime.datetime | None
    max_accepted_credits: float | None
    missed_policy: str
    monthly_budget: float | None
    name: str
    next_run_at: datetime.datetime | None
    starts_at: datetime.datetime
    state: str
    state_reason: None | str
    timezone: str
    updated_at: datetime.datetime
    user_id: UUID
    workspace_id: UUID
    agent_version: int | None | Unset = UNSET
    task: None | ScheduleOutTask | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.schedule_out_task import ScheduleOutTask

        agent_id = str(self.agent_id)

        consecutive_failures = self.consecutive_failures

        created_at = self.created_at.isoformat()

        cron: None | str
        cron = self.cron

        ends_at: None | str
        if isinstance(self.ends_at, datetime.datetime):
            ends_at = self.ends_at.isoformat()
        else:
            ends_at = self.ends_at

        failure_limit = self.failure_limit

        id = str(self.id)

        input_data = self.input_data.to_dict()

        interval_seconds: int | None
        interval_seconds = self.interval_seconds

        last_run_at: None | str
        if isinstance(self.last_run_at, datetime.datetime):
            last_run_at = self.last_run_at.isoformat()
        else:
            last_run_at = self.last_run_at

        max_accepted_credits: float | None
        max_accepted_credits = self.max_accepted_credits

        missed_policy = self.missed_policy

        monthly_budget: float | None
        monthly_budget = self.monthly_budget

        name = self.name

        next_run_at: None | str
        if isinstance(self.next_run_at, datetime.datetime):
            next_run_at = self.next_run_at.isoformat()
        else:
            next_run_at = self.next_run_at

        starts_at = self.starts_at.isoformat()

        state = self.state

        state_reason: None | str
        state_reason = self.state_reason

        timezone = self.timezone

        updated_at = self.updated_at.isoformat()

        user_id = str(self.user_id)

        workspace_id = str(self.workspace_id)

        agent_version: int | None | Unset
        if isinstance(self.agent_version, Unset):
            agent_version = UNSET
        else:
            agent_version = self.agent_version

        task: dict[str, Any] | None | Unset
        if isinstance(self.task, Unset):
            task = UNSET
        elif isinstance(self.task, ScheduleOutTask):
            task = self.task.to_dict()
        else:
            task = self.task

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "agentId": agent_id,
                "consecutiveFailures": consecutive_failures,
                "createdAt": created_at,
                "cron": cron,
                "endsAt": ends_at,
                "failureLimit": failure_limit,
                "id": id,
                "inputData": input_data,
                "intervalSeconds": interval_seconds,
                "lastRunAt": last_run_at,
                "maxAcceptedCredits": max_accepted_credits,
                "missedPolicy": missed_policy,
                "monthlyBudget": monthly_budget,
                "name": name,
                "nextRunAt": next_run_at,
                "startsAt": starts_at,
                "state": state,
                "stateReason": state_reason,
                "timezone": timezone,
                "updatedAt": updated_at,
                "userId": user_id,
                "workspaceId": workspace_id,
            }
        )
        if agent_version is not UNSET:
            field_dict["agentVersion"] = agent_version
        if task is not UNSET:
            field_dict["task"] = task

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.schedule_out_inputdata import ScheduleOutInputdata
        from ..models.schedule_out_task import ScheduleOutTask

        d = dict(src_dict)
        agent_id = UUID(d.pop("agentId"))

        consecutive_failures = d.pop("consecutiveFailures")

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        def _parse_cron(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        cron = _parse_cron(d.pop("cron"))

        def _parse_ends_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                ends_at_type_0 = datetime.datetime.fromisoformat(data)

                return ends_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        ends_at = _parse_ends_at(d.pop("endsAt"))

        failure_limit = d.pop("failureLimit")

        id = UUID(d.pop("id"))

        input_data = ScheduleOutInputdata.from_dict(d.pop("inputData"))

        def _parse_interval_seconds(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        interval_seconds = _parse_interval_seconds(d.pop("intervalSeconds"))

        def _parse_last_run_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                last_run_at_type_0 = datetime.datetime.fromisoformat(data)

                return last_run_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        last_run_at = _parse_last_run_at(d.pop("lastRunAt"))

        def _parse_max_accepted_credits(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        max_accepted_credits = _parse_max_accepted_credits(d.pop("maxAcceptedCredits"))

        missed_policy = d.pop("missedPolicy")

        def _parse_monthly_budget(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        monthly_budget = _parse_monthly_budget(d.pop("monthlyBudget"))

        name = d.pop("name")

        def _parse_next_run_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                next_run_at_type_0 = datetime.datetime.fromisoformat(data)

                return next_run_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        next_run_at = _parse_next_run_at(d.pop("nextRunAt"))

        starts_at = datetime.datetime.fromisoformat(d.pop("startsAt"))

        state = d.pop("state")

        def _parse_state_reason(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        state_reason = _parse_state_reason(d.pop("stateReason"))

        timezone = d.pop("timezone")

        updated_at = datetime.datetime.fromisoformat(d.pop("updatedAt"))

        user_id = UUID(d.pop("userId"))

        workspace_id = UUID(d.pop("workspaceId"))

        def _parse_agent_version(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        agent_version = _parse_agent_version(d.pop("agentVersion", UNSET))

        def _parse_task(data: object) -> None | ScheduleOutTask | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                task_type_0 = ScheduleOutTask.from_dict(data)

                return task_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | ScheduleOutTask | Unset, data)

        task = _parse_task(d.pop("task", UNSET))

        schedule_out = cls(
            agent_id=agent_id,
            consecutive_failures=consecutive_failures,
            created_at=created_at,
            cron=cron,
            ends_at=ends_at,
            failure_limit=failure_limit,
            id=id,
            input_data=input_data,
            interval_seconds=interval_seconds,
            last_run_at=last_run_at,
            max_accepted_credits=max_accepted_credits,
            missed_policy=missed_policy,
            monthly_budget=monthly_budget,
            name=name,
            next_run_at=next_run_at,
            starts_at=starts_at,
            state=state,
            state_reason=state_reason,
            timezone=timezone,
            updated_at=updated_at,
            user_id=user_id,
            workspace_id=workspace_id,
            agent_version=agent_version,
            task=task,
        )

        schedule_out.additional_properties = d
        return schedule_out

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
