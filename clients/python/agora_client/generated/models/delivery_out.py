from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.delivery_out_payload import DeliveryOutPayload


T = TypeVar("T", bound="DeliveryOut")


@_attrs_define
class DeliveryOut:
    """Read from a ``NotificationDelivery`` row.

    Attributes:
        attempts (int):
        channel (str):
        created_at (datetime.datetime):
        delivered_at (datetime.datetime | None):
        event (str):
        id (UUID):
        job_id (None | UUID):
        last_error (None | str):
        last_status_code (int | None):
        next_attempt_at (datetime.datetime | None):
        payload (DeliveryOutPayload):
        state (str): pending | sending | delivered | failed
        target (str):
    """

    attempts: int
    channel: str
    created_at: datetime.datetime
    delivered_at: datetime.datetime | None
    event: str
    id: UUID
    job_id: None | UUID
    last_error: None | str
    last_status_code: int | None
    next_attempt_at: datetime.datetime | None
    payload: DeliveryOutPayload
    state: str
    target: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        attempts = self.attempts

        channel = self.channel

        created_at = self.created_at.isoformat()

        delivered_at: None | str
        if isinstance(self.delivered_at, datetime.datetime):
            delivered_at = self.delivered_at.isoformat()
        else:
            delivered_at = self.delivered_at

        event = self.event

        id = str(self.id)

        job_id: None | str
        if isinstance(self.job_id, UUID):
            job_id = str(self.job_id)
        else:
            job_id = self.job_id

        last_error: None | str
        last_error = self.last_error

        last_status_code: int | None
        last_status_code = self.last_status_code

        next_attempt_at: None | str
        if isinstance(self.next_attempt_at, datetime.datetime):
            next_attempt_at = self.next_attempt_at.isoformat()
        else:
            next_attempt_at = self.next_attempt_at

        payload = self.payload.to_dict()

        state = self.state

        target = self.target

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "attempts": attempts,
                "channel": channel,
                "createdAt": created_at,
                "deliveredAt": delivered_at,
                "event": event,
                "id": id,
                "jobId": job_id,
                "lastError": last_error,
                "lastStatusCode": last_status_code,
                "nextAttemptAt": next_attempt_at,
                "payload": payload,
                "state": state,
                "target": target,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.delivery_out_payload import DeliveryOutPayload

        d = dict(src_dict)
        attempts = d.pop("attempts")

        channel = d.pop("channel")

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        def _parse_delivered_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                delivered_at_type_0 = datetime.datetime.fromisoformat(data)

                return delivered_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        delivered_at = _parse_delivered_at(d.pop("deliveredAt"))

        event = d.pop("event")

        id = UUID(d.pop("id"))

        def _parse_job_id(data: object) -> None | UUID:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                job_id_type_0 = UUID(data)

                return job_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | UUID, data)

        job_id = _parse_job_id(d.pop("jobId"))

        def _parse_last_error(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        last_error = _parse_last_error(d.pop("lastError"))

        def _parse_last_status_code(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        last_status_code = _parse_last_status_code(d.pop("lastStatusCode"))

        def _parse_next_attempt_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                next_attempt_at_type_0 = datetime.datetime.fromisoformat(data)

                return next_attempt_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        next_attempt_at = _parse_next_attempt_at(d.pop("nextAttemptAt"))

        payload = DeliveryOutPayload.from_dict(d.pop("payload"))

        state = d.pop("state")

        target = d.pop("target")

        delivery_out = cls(
            attempts=attempts,
            channel=channel,
            created_at=created_at,
            delivered_at=delivered_at,
            event=event,
            id=id,
            job_id=job_id,
            last_error=last_error,
            last_status_code=last_status_code,
            next_attempt_at=next_attempt_at,
            payload=payload,
            state=state,
            target=target,
        )

        delivery_out.additional_properties = d
        return delivery_out

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
