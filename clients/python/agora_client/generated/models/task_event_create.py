from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.task_event_create_metadata import TaskEventCreateMetadata


T = TypeVar("T", bound="TaskEventCreate")


@_attrs_define
class TaskEventCreate:
    """
    Attributes:
        authentication_url (None | str | Unset):
        channel (None | str | Unset):
        comment (None | str | Unset):
        credits_ (float | None | Unset):
        metadata (None | TaskEventCreateMetadata | Unset):
        origin (None | str | Unset):
        status (None | str | Unset):
    """

    authentication_url: None | str | Unset = UNSET
    channel: None | str | Unset = UNSET
    comment: None | str | Unset = UNSET
    credits_: float | None | Unset = UNSET
    metadata: None | TaskEventCreateMetadata | Unset = UNSET
    origin: None | str | Unset = UNSET
    status: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.task_event_create_metadata import TaskEventCreateMetadata

        authentication_url: None | str | Unset
        if isinstance(self.authentication_url, Unset):
            authentication_url = UNSET
        else:
            authentication_url = self.authentication_url

        channel: None | str | Unset
        if isinstance(self.channel, Unset):
            channel = UNSET
        else:
            channel = self.channel

        comment: None | str | Unset
        if isinstance(self.comment, Unset):
            comment = UNSET
        else:
            comment = self.comment

        credits_: float | None | Unset
        if isinstance(self.credits_, Unset):
            credits_ = UNSET
        else:
            credits_ = self.credits_

        metadata: dict[str, Any] | None | Unset
        if isinstance(self.metadata, Unset):
            metadata = UNSET
        elif isinstance(self.metadata, TaskEventCreateMetadata):
            metadata = self.metadata.to_dict()
        else:
            metadata = self.metadata

        origin: None | str | Unset
        if isinstance(self.origin, Unset):
            origin = UNSET
        else:
            origin = self.origin

        status: None | str | Unset
        if isinstance(self.status, Unset):
            status = UNSET
        else:
            status = self.status

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if authentication_url is not UNSET:
            field_dict["authenticationUrl"] = authentication_url
        if channel is not UNSET:
            field_dict["channel"] = channel
        if comment is not UNSET:
            field_dict["comment"] = comment
        if credits_ is not UNSET:
            field_dict["credits"] = credits_
        if metadata is not UNSET:
            field_dict["metadata"] = metadata
        if origin is not UNSET:
            field_dict["origin"] = origin
        if status is not UNSET:
            field_dict["status"] = status

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.task_event_create_metadata import TaskEventCreateMetadata

        d = dict(src_dict)

        def _parse_authentication_url(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        authentication_url = _parse_authentication_url(d.pop("authenticationUrl", UNSET))

        def _parse_channel(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        channel = _parse_channel(d.pop("channel", UNSET))

        def _parse_comment(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        comment = _parse_comment(d.pop("comment", UNSET))

        def _parse_credits_(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        credits_ = _parse_credits_(d.pop("credits", UNSET))

        def _parse_metadata(data: object) -> None | TaskEventCreateMetadata | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                metadata_type_0 = TaskEventCreateMetadata.from_dict(data)

                return metadata_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | TaskEventCreateMetadata | Unset, data)

        metadata = _parse_metadata(d.pop("metadata", UNSET))

        def _parse_origin(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        origin = _parse_origin(d.pop("origin", UNSET))

        def _parse_status(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        status = _parse_status(d.pop("status", UNSET))

        task_event_create = cls(
            authentication_url=authentication_url,
            channel=channel,
            comment=comment,
            credits_=credits_,
            metadata=metadata,
            origin=origin,
            status=status,
        )

        return task_event_create
