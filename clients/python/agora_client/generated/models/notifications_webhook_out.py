from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="NotificationsWebhookOut")


@_attrs_define
class NotificationsWebhookOut:
    """
    Attributes:
        job_status_notifications_opt_in (bool):
        secret (None | str): Signing secret; returned only when the webhook is set (keep it).
        url (None | str):
    """

    job_status_notifications_opt_in: bool
    secret: None | str
    url: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        job_status_notifications_opt_in = self.job_status_notifications_opt_in

        secret: None | str
        secret = self.secret

        url: None | str
        url = self.url

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "jobStatusNotificationsOptIn": job_status_notifications_opt_in,
                "secret": secret,
                "url": url,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        job_status_notifications_opt_in = d.pop("jobStatusNotificationsOptIn")

        def _parse_secret(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        secret = _parse_secret(d.pop("secret"))

        def _parse_url(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        url = _parse_url(d.pop("url"))

        notifications_webhook_out = cls(
            job_status_notifications_opt_in=job_status_notifications_opt_in,
            secret=secret,
            url=url,
        )

        notifications_webhook_out.additional_properties = d
        return notifications_webhook_out

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
