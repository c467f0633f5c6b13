from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.task_event_out_kind import TaskEventOutKind, check_task_event_out_kind
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.actor import Actor
    from ..models.task_event_out_change import TaskEventOutChange
    from ..models.task_event_out_metadata import TaskEventOutMetadata


T = TypeVar("T", bound="TaskEventOut")


@_attrs_define
class TaskEventOut:
    """Read from ``tasks.service.ShownTaskEvent`` (a ``TaskEvent`` row and its actor).

    Attributes:
        actor (Actor | None):
        authentication_url (None | str):
        channel (None | str):
        comment (None | str):
        created_at (datetime.datetime):
        credits_ (float | None):
        id (UUID):
        metadata (None | TaskEventOutMetadata):
        origin (None | str):
        status (None | str):
        task_id (UUID):
        updated_at (datetime.datetime):
        change (None | TaskEventOutChange | Unset): assignment: {assignee, previous} (each null or {type, id, name});
            participants: {added} or {removed} ({id, name})
        kind (TaskEventOutKind | Unset): null for a comment or status move; assignment or participants for a change of
            the people on the task (what changed: `change`)
    """

    actor: Actor | None
    authentication_url: None | str
    channel: None | str
    comment: None | str
    created_at: datetime.datetime
    credits_: float | None
    id: UUID
    metadata: None | TaskEventOutMetadata
    origin: None | str
    status: None | str
    task_id: UUID
    updated_at: datetime.datetime
    change: None | TaskEventOutChange | Unset = UNSET
    kind: TaskEventOutKind | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.actor import Actor
        from ..models.task_event_out_change import TaskEventOutChange
        from ..models.task_event_out_metadata import TaskEventOutMetadata

        actor: dict[str, Any] | None
        if isinstance(self.actor, Actor):
            actor = self.actor.to_dict()
        else:
            actor = self.actor

        authentication_url: None | str
        authentication_url = self.authentication_url

        channel: None | str
        channel = self.channel

        comment: None | str
        comment = self.comment

        created_at = self.created_at.isoformat()

        credits_: float | None
        credits_ = self.credits_

        id = str(self.id)

        metadata: dict[str, Any] | None
        if isinstance(self.metadata, TaskEventOutMetadata):
            metadata = self.metadata.to_dict()
        else:
            metadata = self.metadata

        origin: None | str
        origin = self.origin

        status: None | str
        status = self.status

        task_id = str(self.task_id)

        updated_at = self.updated_at.isoformat()

        change: dict[str, Any] | None | Unset
        if isinstance(self.change, Unset):
            change = UNSET
        elif isinstance(self.change, TaskEventOutChange):
            change = self.change.to_dict()
        else:
            change = self.change

        kind: str | Unset = UNSET
        if not isinstance(self.kind, Unset):
            kind = self.kind

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "actor": actor,
                "authenticationUrl": authentication_url,
                "channel": channel,
                "comment": comment,
                "createdAt": created_at,
                "credits": credits_,
                "id": id,
                "metadata": metadata,
                "origin": origin,
                "status": status,
                "taskId": task_id,
                "updatedAt": updated_at,
            }
        )
        if change is not UNSET:
            field_dict["change"] = change
        if kind is not UNSET:
            field_dict["kind"] = kind

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.actor import Actor
        from ..models.task_event_out_change import TaskEventOutChange
        from ..models.task_event_out_metadata import TaskEventOutMetadata

        d = dict(src_dict)

        def _parse_actor(data: object) -> Actor | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                actor_type_1 = Actor.from_dict(data)

                return actor_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(Actor | None, data)

        actor = _parse_actor(d.pop("actor"))

        def _parse_authentication_url(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        authentication_url = _parse_authentication_url(d.pop("authenticationUrl"))

        def _parse_channel(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        channel = _parse_channel(d.pop("channel"))

        def _parse_comment(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        comment = _parse_comment(d.pop("comment"))

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        def _parse_credits_(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        credits_ = _parse_credits_(d.pop("credits"))

        id = UUID(d.pop("id"))

        def _parse_metadata(data: object) -> None | TaskEventOutMetadata:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                metadata_type_0 = TaskEventOutMetadata.from_dict(data)

                return metadata_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | TaskEventOutMetadata, data)

        metadata = _parse_metadata(d.pop("metadata"))

        def _parse_origin(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        origin = _parse_origin(d.pop("origin"))

        def _parse_status(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        status = _parse_status(d.pop("status"))

        task_id = UUID(d.pop("taskId"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updatedAt"))

        def _parse_change(data: object) -> None | TaskEventOutChange | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                change_type_0 = TaskEventOutChange.from_dict(data)

                return change_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | TaskEventOutChange | Unset, data)

        change = _parse_change(d.pop("change", UNSET))

        _kind = d.pop("kind", UNSET)
        kind: TaskEventOutKind | Unset
        if isinstance(_kind, Unset):
            kind = UNSET
        else:
            kind = check_task_event_out_kind(_kind)

        task_event_out = cls(
            actor=actor,
            authentication_url=authentication_url,
            channel=channel,
            comment=comment,
            created_at=created_at,
            credits_=credits_,
            id=id,
            metadata=metadata,
            origin=origin,
            status=status,
            task_id=task_id,
            updated_at=updated_at,
            change=change,
            kind=kind,
        )

        task_event_out.additional_properties = d
        return task_event_out

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
