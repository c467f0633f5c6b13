from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.notification_out_data import NotificationOutData


T = TypeVar("T", bound="NotificationOut")


@_attrs_define
class NotificationOut:
    """Read from a ``Notification`` row.

    Attributes:
        created_at (datetime.datetime):
        data (NotificationOutData):
        id (UUID):
        kind (str):
        link (None | str): Where it points in the web app (a path).
        read (bool):
        read_at (datetime.datetime | None):
        subject_ref (None | str): What it is about: "job:<id>", …
        title (str):
    """

    created_at: datetime.datetime
    data: NotificationOutData
    id: UUID
    kind: str
    link: None | str
    read: bool
    read_at: datetime.datetime | None
    subject_ref: None | str
    title: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at.isoformat()

        data = self.data.to_dict()

        id = str(self.id)

        kind = self.kind

        link: None | str
        link = self.link

        read = self.read

        read_at: None | str
        if isinstance(self.read_at, datetime.datetime):
            read_at = self.read_at.isoformat()
        else:
            read_at = self.read_at

        subject_ref: None | str
        subject_ref = self.subject_ref

        title = self.title

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "createdAt": created_at,
                "data": data,
                "id": id,
                "kind": kind,
                "link": link,
                "read": read,
                "readAt": read_at,
                "subjectRef": subject_ref,
                "title": title,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.notification_out_data import NotificationOutData

        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        data = NotificationOutData.from_dict(d.pop("data"))

        id = UUID(d.pop("id"))

        kind = d.pop("kind")

        def _parse_link(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        link = _parse_link(d.pop("link"))

        read = d.pop("read")

        def _parse_read_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                read_at_type_0 = datetime.datetime.fromisoformat(data)

                return read_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        read_at = _parse_read_at(d.pop("readAt"))

        def _parse_subject_ref(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        subject_ref = _parse_subject_ref(d.pop("subjectRef"))

        title = d.pop("title")

        notification_out = cls(
            created_at=created_at,
            data=data,
            id=id,
            kind=kind,
            link=link,
            read=read,
            read_at=read_at,
            subject_ref=subject_ref,
            title=title,
        )

        notification_out.additional_properties = d
        return notification_out

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
