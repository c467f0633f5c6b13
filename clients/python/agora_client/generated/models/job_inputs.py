from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.job_inputs_inputdata import JobInputsInputdata


T = TypeVar("T", bound="JobInputs")


@_attrs_define
class JobInputs:
    """
    Attributes:
        input_data (JobInputsInputdata):
        event_id (None | str | Unset): The job event that asked for input (optional guard, as statusId).
        status_id (None | str | Unset): The input request answered (optional guard).
    """

    input_data: JobInputsInputdata
    event_id: None | str | Unset = UNSET
    status_id: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        input_data = self.input_data.to_dict()

        event_id: None | str | Unset
        if isinstance(self.event_id, Unset):
            event_id = UNSET
        else:
            event_id = self.event_id

        status_id: None | str | Unset
        if isinstance(self.status_id, Unset):
            status_id = UNSET
        else:
            status_id = self.status_id

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "inputData": input_data,
            }
        )
        if event_id is not UNSET:
            field_dict["eventId"] = event_id
        if status_id is not UNSET:
            field_dict["statusId"] = status_id

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.job_inputs_inputdata import JobInputsInputdata

        d = dict(src_dict)
        input_data = JobInputsInputdata.from_dict(d.pop("inputData"))

        def _parse_event_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        event_id = _parse_event_id(d.pop("eventId", UNSET))

        def _parse_status_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        status_id = _parse_status_id(d.pop("statusId", UNSET))

        job_inputs = cls(
            input_data=input_data,
            event_id=event_id,
            status_id=status_id,
        )

        return job_inputs
