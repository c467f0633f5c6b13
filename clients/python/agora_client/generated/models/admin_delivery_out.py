from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="AdminDeliveryOut")


@_attrs_define
class AdminDeliveryOut:
    """
    Attributes:
        attempts (int):
        channel (str):
        created_at (datetime.datetime):
        delivered_at (datetime.datetime | None):
        event (str):
        last_error (None | str):
        last_status_code (int | None):
        state (str):
        target (str): Where to (a URL without its query string, or an address)
    """

    attempts: int
    channel: str
    created_at: datetime.datetime
    delivered_at: datetime.datetime | None
    event: str
    last_error: None | str
    last_status_code: int | None
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

        last_error: None | str
        last_error = self.last_error

        last_status_code: int | None
        last_status_code = self.last_status_code

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
                "lastError": last_error,
                "lastStatusCode": last_status_code,
                "state": state,
                "target": target,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
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

        state = d.pop("state")

        target = d.pop("target")

        admin_delivery_out = cls(
            attempts=attempts,
            channel=channel,
            created_at=created_at,
            delivered_at=delivered_at,
            event=event,
            last_error=last_error,
            last_status_code=last_status_code,
            state=state,
            target=target,
        )

        admin_delivery_out.additional_properties = d
        return admin_delivery_out

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
