from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.admin_job_event_out_detail import AdminJobEventOutDetail


T = TypeVar("T", bound="AdminJobEventOut")


@_attrs_define
class AdminJobEventOut:
    """
    Attributes:
        created_at (datetime.datetime):
        detail (AdminJobEventOutDetail):
        from_status (None | str):
        to_status (None | str):
        type_ (str):
    """

    created_at: datetime.datetime
    detail: AdminJobEventOutDetail
    from_status: None | str
    to_status: None | str
    type_: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at.isoformat()

        detail = self.detail.to_dict()

        from_status: None | str
        from_status = self.from_status

        to_status: None | str
        to_status = self.to_status

        type_ = self.type_

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "createdAt": created_at,
                "detail": detail,
                "fromStatus": from_status,
                "toStatus": to_status,
                "type": type_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.admin_job_event_out_detail import AdminJobEventOutDetail

        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        detail = AdminJobEventOutDetail.from_dict(d.pop("detail"))

        def _parse_from_status(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        from_status = _parse_from_status(d.pop("fromStatus"))

        def _parse_to_status(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        to_status = _parse_to_status(d.pop("toStatus"))

        type_ = d.pop("type")

        admin_job_event_out = cls(
            created_at=created_at,
            detail=detail,
            from_status=from_status,
            to_status=to_status,
            type_=type_,
        )

        admin_job_event_out.additional_properties = d
        return admin_job_event_out

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
