from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.input_request_out_inputschema import InputRequestOutInputschema


T = TypeVar("T", bound="InputRequestOut")


@_attrs_define
class InputRequestOut:
    """
    Attributes:
        event_id (None | str): The job event that moved the job to INPUT_REQUIRED.
        input_schema (InputRequestOutInputschema):
        job_id (str):
        requested_at (None | str):
        status_id (None | str):
        message (None | str | Unset): What the agent said with its request (MIP-003 /status `message`): untrusted text,
            Markdown at most.
    """

    event_id: None | str
    input_schema: InputRequestOutInputschema
    job_id: str
    requested_at: None | str
    status_id: None | str
    message: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        event_id: None | str
        event_id = self.event_id

        input_schema = self.input_schema.to_dict()

        job_id = self.job_id

        requested_at: None | str
        requested_at = self.requested_at

        status_id: None | str
        status_id = self.status_id

        message: None | str | Unset
        if isinstance(self.message, Unset):
            message = UNSET
        else:
            message = self.message

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "eventId": event_id,
                "inputSchema": input_schema,
                "jobId": job_id,
                "requestedAt": requested_at,
                "statusId": status_id,
            }
        )
        if message is not UNSET:
            field_dict["message"] = message

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.input_request_out_inputschema import InputRequestOutInputschema

        d = dict(src_dict)

        def _parse_event_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        event_id = _parse_event_id(d.pop("eventId"))

        input_schema = InputRequestOutInputschema.from_dict(d.pop("inputSchema"))

        job_id = d.pop("jobId")

        def _parse_requested_at(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        requested_at = _parse_requested_at(d.pop("requestedAt"))

        def _parse_status_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        status_id = _parse_status_id(d.pop("statusId"))

        def _parse_message(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        message = _parse_message(d.pop("message", UNSET))

        input_request_out = cls(
            event_id=event_id,
            input_schema=input_schema,
            job_id=job_id,
            requested_at=requested_at,
            status_id=status_id,
            message=message,
        )

        input_request_out.additional_properties = d
        return input_request_out

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
