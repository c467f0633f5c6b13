from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.task_create_metadata import TaskCreateMetadata


T = TypeVar("T", bound="TaskCreate")


@_attrs_define
class TaskCreate:
    """
    Attributes:
        name (str):
        assignee_id (None | str | Unset): A member's user id or a coworker's id
        channel (None | str | Unset):
        coworker_id (None | str | Unset):
        description (str | Unset):  Default: ''.
        metadata (None | TaskCreateMetadata | Unset):
        origin (None | str | Unset):
        status (str | Unset):  Default: 'PENDING'.
    """

    name: str
    assignee_id: None | str | Unset = UNSET
    channel: None | str | Unset = UNSET
    coworker_id: None | str | Unset = UNSET
    description: str | Unset = ""
    metadata: None | TaskCreateMetadata | Unset = UNSET
    origin: None | str | Unset = UNSET
    status: str | Unset = "PENDING"

    def to_dict(self) -> dict[str, Any]:
        from ..models.task_create_metadata import TaskCreateMetadata

        name = self.name

        assignee_id: None | str | Unset
        if isinstance(self.assignee_id, Unset):
            assignee_id = UNSET
        else:
            assignee_id = self.assignee_id

        channel: None | str | Unset
        if isinstance(self.channel, Unset):
            channel = UNSET
        else:
            channel = self.channel

        coworker_id: None | str | Unset
        if isinstance(self.coworker_id, Unset):
            coworker_id = UNSET
        else:
            coworker_id = self.coworker_id

        description = self.description

        metadata: dict[str, Any] | None | Unset
        if isinstance(self.metadata, Unset):
            metadata = UNSET
        elif isinstance(self.metadata, TaskCreateMetadata):
            metadata = self.metadata.to_dict()
        else:
            metadata = self.metadata

        origin: None | str | Unset
        if isinstance(self.origin, Unset):
            origin = UNSET
        else:
            origin = self.origin

        status = self.status

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
            }
        )
        if assignee_id is not UNSET:
            field_dict["assigneeId"] = assignee_id
        if channel is not UNSET:
            field_dict["channel"] = channel
        if coworker_id is not UNSET:
            field_dict["coworkerId"] = coworker_id
        if description is not UNSET:
            field_dict["description"] = description
        if metadata is not UNSET:
            field_dict["metadata"] = metadata
        if origin is not UNSET:
            field_dict["origin"] = origin
        if status is not UNSET:
            field_dict["status"] = status

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.task_create_metadata import TaskCreateMetadata

        d = dict(src_dict)
        name = d.pop("name")

        def _parse_assignee_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        assignee_id = _parse_assignee_id(d.pop("assigneeId", UNSET))

        def _parse_channel(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        channel = _parse_channel(d.pop("channel", UNSET))

        def _parse_coworker_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        coworker_id = _parse_coworker_id(d.pop("coworkerId", UNSET))

        description = d.pop("description", UNSET)

        def _parse_metadata(data: object) -> None | TaskCreateMetadata | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                metadata_type_0 = TaskCreateMetadata.from_dict(data)

                return metadata_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | TaskCreateMetadata | Unset, data)

        metadata = _parse_metadata(d.pop("metadata", UNSET))

        def _parse_origin(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        origin = _parse_origin(d.pop("origin", UNSET))

        status = d.pop("status", UNSET)

        task_create = cls(
            name=name,
            assignee_id=assignee_id,
            channel=channel,
            coworker_id=coworker_id,
            description=description,
            metadata=metadata,
            origin=origin,
            status=status,
        )

        return task_create
