from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.task_job_create_inputdata import TaskJobCreateInputdata


T = TypeVar("T", bound="TaskJobCreate")


@_attrs_define
class TaskJobCreate:
    """
    Attributes:
        agent_id (str):
        input_data (None | TaskJobCreateInputdata | Unset):
        input_schema (Any | Unset): As on POST /v1/agents/{id}/jobs: must be the agent's current one.
        max_accepted_credits (float | None | Unset):
        max_credits (float | None | Unset):
        name (None | str | Unset):
    """

    agent_id: str
    input_data: None | TaskJobCreateInputdata | Unset = UNSET
    input_schema: Any | Unset = UNSET
    max_accepted_credits: float | None | Unset = UNSET
    max_credits: float | None | Unset = UNSET
    name: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.task_job_create_inputdata import TaskJobCreateInputdata

        agent_id = self.agent_id

        input_data: dict[str, Any] | None | Unset
        if isinstance(self.input_data, Unset):
            input_data = UNSET
        elif isinstance(self.input_data, TaskJobCreateInputdata):
            input_data = self.input_data.to_dict()
        else:
            input_data = self.input_data

        input_schema = self.input_schema

        max_accepted_credits: float | None | Unset
        if isinstance(self.max_accepted_credits, Unset):
            max_accepted_credits = UNSET
        else:
            max_accepted_credits = self.max_accepted_credits

        max_credits: float | None | Unset
        if isinstance(self.max_credits, Unset):
            max_credits = UNSET
        else:
            max_credits = self.max_credits

        name: None | str | Unset
        if isinstance(self.name, Unset):
            name = UNSET
        else:
            name = self.name

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "agentId": agent_id,
            }
        )
        if input_data is not UNSET:
            field_dict["inputData"] = input_data
        if input_schema is not UNSET:
            field_dict["inputSchema"] = input_schema
        if max_accepted_credits is not UNSET:
            field_dict["maxAcceptedCredits"] = max_accepted_credits
        if max_credits is not UNSET:
            field_dict["maxCredits"] = max_credits
        if name is not UNSET:
            field_dict["name"] = name

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.task_job_create_inputdata import TaskJobCreateInputdata

        d = dict(src_dict)
        agent_id = d.pop("agentId")

        def _parse_input_data(data: object) -> None | TaskJobCreateInputdata | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                input_data_type_0 = TaskJobCreateInputdata.from_dict(data)

                return input_data_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | TaskJobCreateInputdata | Unset, data)

        input_data = _parse_input_data(d.pop("inputData", UNSET))

        input_schema = d.pop("inputSchema", UNSET)

        def _parse_max_accepted_credits(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        max_accepted_credits = _parse_max_accepted_credits(d.pop("maxAcceptedCredits", UNSET))

        def _parse_max_credits(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        max_credits = _parse_max_credits(d.pop("maxCredits", UNSET))

        def _parse_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        name = _parse_name(d.pop("name", UNSET))

        task_job_create = cls(
            agent_id=agent_id,
            input_data=input_data,
            input_schema=input_schema,
            max_accepted_credits=max_accepted_credits,
            max_credits=max_credits,
            name=name,
        )

        return task_job_create
