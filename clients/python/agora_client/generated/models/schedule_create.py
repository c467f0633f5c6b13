from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.schedule_create_missedpolicy import (
    ScheduleCreateMissedpolicy,
    check_schedule_create_missedpolicy,
)
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.schedule_create_inputdata import ScheduleCreateInputdata
    from ..models.task_template import TaskTemplate


T = TypeVar("T", bound="ScheduleCreate")


@_attrs_define
class ScheduleCreate:
    """
    Attributes:
        agent_id (None | str | Unset): Required without savedInputId.
        agent_version (int | None | Unset): Run this version of the agent at every occurrence; left out: the latest
            compatible version (the newest whose input schema accepts inputData).
        cron (None | str | Unset):  Example: 0 9 * * MON.
        ends_at (datetime.datetime | None | Unset):
        failure_limit (int | Unset):  Default: 5.
        input_data (None | ScheduleCreateInputdata | Unset):
        interval_seconds (int | None | Unset):
        max_accepted_credits (float | None | Unset):
        missed_policy (ScheduleCreateMissedpolicy | Unset):  Default: 'run_once'.
        monthly_budget (float | None | Unset): Credits the runs may hold per calendar month.
        name (None | str | Unset):
        saved_input_id (None | str | Unset): One of your saved inputs: its agent, input and pinned version (instead of
            agentId, inputData and agentVersion).
        starts_at (datetime.datetime | None | Unset): Default: now.
        task (None | TaskTemplate | Unset):
        timezone (str | Unset):  Default: 'UTC'. Example: Europe/Berlin.
    """

    agent_id: None | str | Unset = UNSET
    agent_version: int | None | Unset = UNSET
    cron: None | str | Unset = UNSET
    ends_at: datetime.datetime | None | Unset = UNSET
    failure_limit: int | Unset = 5
    input_data: None | ScheduleCreateInputdata | Unset = UNSET
    interval_seconds: int | None | Unset = UNSET
    max_accepted_credits: float | None | Unset = UNSET
    missed_policy: ScheduleCreateMissedpolicy | Unset = "run_once"
    monthly_budget: float | None | Unset = UNSET
    name: None | str | Unset = UNSET
    saved_input_id: None | str | Unset = UNSET
    starts_at: datetime.datetime | None | Unset = UNSET
    task: None | TaskTemplate | Unset = UNSET
    timezone: str | Unset = "UTC"

    def to_dict(self) -> dict[str, Any]:
        from ..models.schedule_create_inputdata import ScheduleCreateInputdata
        from ..models.task_template import TaskTemplate

        agent_id: None | str | Unset
        if isinstance(self.agent_id, Unset):
            agent_id = UNSET
        else:
            agent_id = self.agent_id

        agent_version: int | None | Unset
        if isinstance(self.agent_version, Unset):
            agent_version = UNSET
        else:
            agent_version = self.agent_version

        cron: None | str | Unset
        if isinstance(self.cron, Unset):
            cron = UNSET
        else:
            cron = self.cron

        ends_at: None | str | Unset
        if isinstance(self.ends_at, Unset):
            ends_at = UNSET
        elif isinstance(self.ends_at, datetime.datetime):
            ends_at = self.ends_at.isoformat()
        else:
            ends_at = self.ends_at

        failure_limit = self.failure_limit

        input_data: dict[str, Any] | None | Unset
        if isinstance(self.input_data, Unset):
            input_data = UNSET
        elif isinstance(self.input_data, ScheduleCreateInputdata):
            input_data = self.input_data.to_dict()
        else:
            input_data = self.input_data

        interval_seconds: int | None | Unset
        if isinstance(self.interval_seconds, Unset):
            interval_seconds = UNSET
        else:
            interval_seconds = self.interval_seconds

        max_accepted_credits: float | None | Unset
        if isinstance(self.max_accepted_credits, Unset):
            max_accepted_credits = UNSET
        else:
            max_accepted_credits = self.max_accepted_credits

        missed_policy: str | Unset = UNSET
        if not isinstance(self.missed_policy, Unset):
            missed_policy = self.missed_policy

        monthly_budget: float | None | Unset
        if isinstance(self.monthly_budget, Unset):
            monthly_budget = UNSET
        else:
            monthly_budget = self.monthly_budget

        name: None | str | Unset
        if isinstance(self.name, Unset):
            name = UNSET
        else:
            name = self.name

        saved_input_id: None | str | Unset
        if isinstance(self.saved_input_id, Unset):
            saved_input_id = UNSET
        else:
            saved_input_id = self.saved_input_id

        starts_at: None | str | Unset
        if isinstance(self.starts_at, Unset):
            starts_at = UNSET
        elif isinstance(self.starts_at, datetime.datetime):
            starts_at = self.starts_at.isoformat()
        else:
            starts_at = self.starts_at

        task: dict[str, Any] | None | Unset
        if isinstance(self.task, Unset):
            task = UNSET
        elif isinstance(self.task, TaskTemplate):
            task = self.task.to_dict()
        else:
            task = self.task

        timezone = self.timezone

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if agent_id is not UNSET:
            field_dict["agentId"] = agent_id
        if agent_version is not UNSET:
            field_dict["agentVersion"] = agent_version
        if cron is not UNSET:
            field_dict["cron"] = cron
        if ends_at is not UNSET:
            field_dict["endsAt"] = ends_at
        if failure_limit is not UNSET:
            field_dict["failureLimit"] = failure_limit
        if input_data is not UNSET:
            field_dict["inputData"] = input_data
        if interval_seconds is not UNSET:
            field_dict["intervalSeconds"] = interval_seconds
        if max_accepted_credits is not UNSET:
            field_dict["maxAcceptedCredits"] = max_accepted_credits
        if missed_policy is not UNSET:
            field_dict["missedPolicy"] = missed_policy
        if monthly_budget is not UNSET:
            field_dict["monthlyBudget"] = monthly_budget
        if name is not UNSET:
            field_dict["name"] = name
        if saved_input_id is not UNSET:
            field_dict["savedInputId"] = saved_input_id
        if starts_at is not UNSET:
            field_dict["startsAt"] = starts_at
        if task is not UNSET:
            field_dict["task"] = task
        if timezone is not UNSET:
            field_dict["timezone"] = timezone

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.schedule_create_inputdata import ScheduleCreateInputdata
        from ..models.task_template import TaskTemplate

        d = dict(src_dict)

        def _parse_agent_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        agent_id = _parse_agent_id(d.pop("agentId", UNSET))

        def _parse_agent_version(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        agent_version = _parse_agent_version(d.pop("agentVersion", UNSET))

        def _parse_cron(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        cron = _parse_cron(d.pop("cron", UNSET))

        def _parse_ends_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                ends_at_type_0 = datetime.datetime.fromisoformat(data)

                return ends_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        ends_at = _parse_ends_at(d.pop("endsAt", UNSET))

        failure_limit = d.pop("failureLimit", UNSET)

        def _parse_input_data(data: object) -> None | ScheduleCreateInputdata | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                input_data_type_0 = ScheduleCreateInputdata.from_dict(data)

                return input_data_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | ScheduleCreateInputdata | Unset, data)

        input_data = _parse_input_data(d.pop("inputData", UNSET))

        def _parse_interval_seconds(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        interval_seconds = _parse_interval_seconds(d.pop("intervalSeconds", UNSET))

        def _parse_max_accepted_credits(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        max_accepted_credits = _parse_max_accepted_credits(d.pop("maxAcceptedCredits", UNSET))

        _missed_policy = d.pop("missedPolicy", UNSET)
        missed_policy: ScheduleCreateMissedpolicy | Unset
        if isinstance(_missed_policy, Unset):
            missed_policy = UNSET
        else:
            missed_policy = check_schedule_create_missedpolicy(_missed_policy)

        def _parse_monthly_budget(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        monthly_budget = _parse_monthly_budget(d.pop("monthlyBudget", UNSET))

        def _parse_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        name = _parse_name(d.pop("name", UNSET))

        def _parse_saved_input_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        saved_input_id = _parse_saved_input_id(d.pop("savedInputId", UNSET))

        def _parse_starts_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                starts_at_type_0 = datetime.datetime.fromisoformat(data)

                return starts_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        starts_at = _parse_starts_at(d.pop("startsAt", UNSET))

        def _parse_task(data: object) -> None | TaskTemplate | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                task_type_1 = TaskTemplate.from_dict(data)

                return task_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | TaskTemplate | Unset, data)

        task = _parse_task(d.pop("task", UNSET))

        timezone = d.pop("timezone", UNSET)

        schedule_create = cls(
            agent_id=agent_id,
            agent_version=agent_version,
            cron=cron,
            ends_at=ends_at,
            failure_limit=failure_limit,
            input_data=input_data,
            interval_seconds=interval_seconds,
            max_accepted_credits=max_accepted_credits,
            missed_policy=missed_policy,
            monthly_budget=monthly_budget,
            name=name,
            saved_input_id=saved_input_id,
            starts_at=starts_at,
            task=task,
            timezone=timezone,
        )

        return schedule_create
