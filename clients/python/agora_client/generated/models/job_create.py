from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.job_create_inputdata import JobCreateInputdata
    from ..models.job_share_request import JobShareRequest


T = TypeVar("T", bound="JobCreate")


@_attrs_define
class JobCreate:
    """
    Attributes:
        input_data (JobCreateInputdata | None | Unset):
        input_schema (Any | Unset): The input schema the input was built for (optional): it must be the agent's current
            one (409 otherwise).
        job_share_request (JobShareRequest | None | Unset):
        max_accepted_credits (float | None | Unset): Refuse (400) if the agent's price is above this.
        max_credits (float | None | Unset): Alias of maxAcceptedCredits.
        name (None | str | Unset):
        task_id (None | str | Unset):
        webhook (None | str | Unset): An http(s) URL told about this job's status changes (Standard Webhooks signature;
            docs/notifications.md).
        webhook_events_filter (list[str] | None | Unset): Only these events (pending, running, input_required,
            completed, failed, cancelled); all when left out.
    """

    input_data: JobCreateInputdata | None | Unset = UNSET
    input_schema: Any | Unset = UNSET
    job_share_request: JobShareRequest | None | Unset = UNSET
    max_accepted_credits: float | None | Unset = UNSET
    max_credits: float | None | Unset = UNSET
    name: None | str | Unset = UNSET
    task_id: None | str | Unset = UNSET
    webhook: None | str | Unset = UNSET
    webhook_events_filter: list[str] | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.job_create_inputdata import JobCreateInputdata
        from ..models.job_share_request import JobShareRequest

        input_data: dict[str, Any] | None | Unset
        if isinstance(self.input_data, Unset):
            input_data = UNSET
        elif isinstance(self.input_data, JobCreateInputdata):
            input_data = self.input_data.to_dict()
        else:
            input_data = self.input_data

        input_schema = self.input_schema

        job_share_request: dict[str, Any] | None | Unset
        if isinstance(self.job_share_request, Unset):
            job_share_request = UNSET
        elif isinstance(self.job_share_request, JobShareRequest):
            job_share_request = self.job_share_request.to_dict()
        else:
            job_share_request = self.job_share_request

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

        task_id: None | str | Unset
        if isinstance(self.task_id, Unset):
            task_id = UNSET
        else:
            task_id = self.task_id

        webhook: None | str | Unset
        if isinstance(self.webhook, Unset):
            webhook = UNSET
        else:
            webhook = self.webhook

        webhook_events_filter: list[str] | None | Unset
        if isinstance(self.webhook_events_filter, Unset):
            webhook_events_filter = UNSET
        elif isinstance(self.webhook_events_filter, list):
            webhook_events_filter = self.webhook_events_filter

        else:
            webhook_events_filter = self.webhook_events_filter

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if input_data is not UNSET:
            field_dict["inputData"] = input_data
        if input_schema is not UNSET:
            field_dict["inputSchema"] = input_schema
        if job_share_request is not UNSET:
            field_dict["jobShareRequest"] = job_share_request
        if max_accepted_credits is not UNSET:
            field_dict["maxAcceptedCredits"] = max_accepted_credits
        if max_credits is not UNSET:
            field_dict["maxCredits"] = max_credits
        if name is not UNSET:
            field_dict["name"] = name
        if task_id is not UNSET:
            field_dict["taskId"] = task_id
        if webhook is not UNSET:
            field_dict["webhook"] = webhook
        if webhook_events_filter is not UNSET:
            field_dict["webhookEventsFilter"] = webhook_events_filter

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.job_create_inputdata import JobCreateInputdata
        from ..models.job_share_request import JobShareRequest

        d = dict(src_dict)

        def _parse_input_data(data: object) -> JobCreateInputdata | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                input_data_type_0 = JobCreateInputdata.from_dict(data)

                return input_data_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(JobCreateInputdata | None | Unset, data)

        input_data = _parse_input_data(d.pop("inputData", UNSET))

        input_schema = d.pop("inputSchema", UNSET)

        def _parse_job_share_request(data: object) -> JobShareRequest | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                job_share_request_type_1 = JobShareRequest.from_dict(data)

                return job_share_request_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(JobShareRequest | None | Unset, data)

        job_share_request = _parse_job_share_request(d.pop("jobShareRequest", UNSET))

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

        def _parse_task_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        task_id = _parse_task_id(d.pop("taskId", UNSET))

        def _parse_webhook(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        webhook = _parse_webhook(d.pop("webhook", UNSET))

        def _parse_webhook_events_filter(data: object) -> list[str] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                webhook_events_filter_type_0 = cast(list[str], data)

                return webhook_events_filter_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None | Unset, data)

        webhook_events_filter = _parse_webhook_events_filter(d.pop("webhookEventsFilter", UNSET))

        job_create = cls(
            input_data=input_data,
            input_schema=input_schema,
            job_share_request=job_share_request,
            max_accepted_credits=max_accepted_credits,
            max_credits=max_credits,
            name=name,
            task_id=task_id,
            webhook=webhook,
            webhook_events_filter=webhook_events_filter,
        )

        return job_create
