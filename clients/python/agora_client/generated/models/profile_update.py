from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="ProfileUpdate")


@_attrs_define
class ProfileUpdate:
    """The editable profile. PUT replaces it (see service.replace_profile); PATCH merges it.

    Attributes:
        job_status_notifications_opt_in (bool | None | Unset):
        marketing_opt_in (bool | None | Unset):
        name (None | str | Unset):
    """

    job_status_notifications_opt_in: bool | None | Unset = UNSET
    marketing_opt_in: bool | None | Unset = UNSET
    name: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        job_status_notifications_opt_in: bool | None | Unset
        if isinstance(self.job_status_notifications_opt_in, Unset):
            job_status_notifications_opt_in = UNSET
        else:
            job_status_notifications_opt_in = self.job_status_notifications_opt_in

        marketing_opt_in: bool | None | Unset
        if isinstance(self.marketing_opt_in, Unset):
            marketing_opt_in = UNSET
        else:
            marketing_opt_in = self.marketing_opt_in

        name: None | str | Unset
        if isinstance(self.name, Unset):
            name = UNSET
        else:
            name = self.name

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if job_status_notifications_opt_in is not UNSET:
            field_dict["jobStatusNotificationsOptIn"] = job_status_notifications_opt_in
        if marketing_opt_in is not UNSET:
            field_dict["marketingOptIn"] = marketing_opt_in
        if name is not UNSET:
            field_dict["name"] = name

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_job_status_notifications_opt_in(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        job_status_notifications_opt_in = _parse_job_status_notifications_opt_in(
            d.pop("jobStatusNotificationsOptIn", UNSET)
        )

        def _parse_marketing_opt_in(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        marketing_opt_in = _parse_marketing_opt_in(d.pop("marketingOptIn", UNSET))

        def _parse_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        name = _parse_name(d.pop("name", UNSET))

        profile_update = cls(
            job_status_notifications_opt_in=job_status_notifications_opt_in,
            marketing_opt_in=marketing_opt_in,
            name=name,
        )

        return profile_update
