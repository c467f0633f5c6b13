from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.actor import Actor
    from ..models.assignee_ref import AssigneeRef
    from ..models.coworker_ref import CoworkerRef
    from ..models.job_file_out import JobFileOut
    from ..models.job_link_out import JobLinkOut
    from ..models.job_out import JobOut
    from ..models.named_ref import NamedRef
    from ..models.organization_ref import OrganizationRef
    from ..models.task_event_out import TaskEventOut
    from ..models.task_out_metadata import TaskOutMetadata


T = TypeVar("T", bound="TaskOut")


@_attrs_define
class TaskOut:
    """Read from ``tasks.service.TaskSnapshot`` (a ``Task`` row, its people, spend, jobs and
    events).

        Attributes:
            archived (bool):
            archived_at (datetime.datetime | None):
            assignee (AssigneeRef | None): A member of the workspace or a coworker; coworkerId is set only for a coworker
            assignee_id (None | UUID): The member's user id or the coworker's id (see assignee.type)
            channel (None | str):
            coworker (CoworkerRef | None):
            coworker_id (None | UUID):
            created_at (datetime.datetime):
            creator (Actor): Read from ``tasks.service.ActorView``.
            creator_id (UUID):
            credits_ (float): Net spend of the task's jobs plus its usage charges
            description (str):
            events (list[TaskEventOut]):
            files (list[JobFileOut]): The files of the task's jobs
            id (UUID):
            jobs (list[JobOut]):
            links (list[JobLinkOut]): The links of the task's jobs
            metadata (None | TaskOutMetadata):
            name (str):
            organization (None | OrganizationRef):
            organization_id (None | UUID):
            origin (None | str):
            owner (NamedRef | None):
            owner_id (UUID):
            participants (list[NamedRef]): People taking part beside the assignee
            project_id (None | UUID):
            status (str):
            title (str): Same as name (the coworker runtime reads title).
            updated_at (datetime.datetime):
            user (NamedRef | None):
            user_id (UUID):
            workspace (NamedRef): Read from a ``User`` or ``Workspace`` row.
            workspace_id (UUID):
    """

    archived: bool
    archived_at: datetime.datetime | None
    assignee: AssigneeRef | None
    assignee_id: None | UUID
    channel: None | str
    coworker: CoworkerRef | None
    coworker_id: None | UUID
    created_at: datetime.datetime
    creator: Actor
    creator_id: UUID
    credits_: float
    description: str
    events: list[TaskEventOut]
    files: list[JobFileOut]
    id: UUID
    jobs: list[JobOut]
    links: list[JobLinkOut]
    metadata: None | TaskOutMetadata
    name: str
    organization: None | OrganizationRef
    organization_id: None | UUID
    origin: None | str
    owner: NamedRef | None
    owner_id: UUID
    participants: list[NamedRef]
    project_id: None | UUID
    status: str
    title: str
    updated_at: datetime.datetime
    user: NamedRef | None
    user_id: UUID
    workspace: NamedRef
    workspace_id: UUID
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.assignee_ref import AssigneeRef
        from ..models.coworker_ref import CoworkerRef
        from ..models.named_ref import NamedRef
        from ..models.organization_ref import OrganizationRef
        from ..models.task_out_metadata import TaskOutMetadata

        archived = self.archived

        archived_at: None | str
        if isinstance(self.archived_at, datetime.datetime):
            archived_at = self.archived_at.isoformat()
        else:
            archived_at = self.archived_at

        assignee: dict[str, Any] | None
        if isinstance(self.assignee, AssigneeRef):
            assignee = self.assignee.to_dict()
        else:
            assignee = self.assignee

        assignee_id: None | str
        if isinstance(self.assignee_id, UUID):
            assignee_id = str(self.assignee_id)
        else:
            assignee_id = self.assignee_id

        channel: None | str
        channel = self.channel

        coworker: dict[str, Any] | None
        if isinstance(self.coworker, CoworkerRef):
            coworker = self.coworker.to_dict()
        else:
            coworker = self.coworker

        coworker_id: None | str
        if isinstance(self.coworker_id, UUID):
            coworker_id = str(self.coworker_id)
        else:
            coworker_id = self.coworker_id

        created_at = self.created_at.isoformat()

        creator = self.creator.to_dict()

        creator_id = str(self.creator_id)

        credits_ = self.credits_

        description = self.description

        events = []
        for events_item_data in self.events:
            events_item = events_item_data.to_dict()
            events.append(events_item)

        files = []
        for files_item_data in self.files:
            files_item = files_item_data.to_dict()
            files.append(files_item)

        id = str(self.id)

        jobs = []
        for jobs_item_data in self.jobs:
            jobs_item = jobs_item_data.to_dict()
            jobs.append(jobs_item)

        links = []
        for links_item_data in self.links:
            links_item = links_item_data.to_dict()
            links.append(links_item)

        metadata: dict[str, Any] | None
        if isinstance(self.metadata, TaskOutMetadata):
            metadata = self.metadata.to_dict()
        else:
            metadata = self.metadata

        name = self.name

        organization: dict[str, Any] | None
        if isinstance(self.organization, OrganizationRef):
            organization = self.organization.to_dict()
        else:
            organization = self.organization

        organization_id: None | str
        if isinstance(self.organization_id, UUID):
            organization_id = str(self.organization_id)
        else:
            organization_id = self.organization_id

        origin: None | str
        origin = self.origin

        owner: dict[str, Any] | None
        if isinstance(self.owner, NamedRef):
            owner = self.owner.to_dict()
        else:
            owner = self.owner

        owner_id = str(self.owner_id)

        participants = []
        for participants_item_data in self.participants:
            participants_item = participants_item_data.to_dict()
            participants.append(participants_item)

        project_id: None | str
        if isinstance(self.project_id, UUID):
            project_id = str(self.project_id)
        else:
            project_id = self.project_id

        status = self.status

        title = self.title

        updated_at = self.updated_at.isoformat()

        user: dict[str, Any] | None
        if isinstance(self.user, NamedRef):
            user = self.user.to_dict()
        else:
            user = self.user

        user_id = str(self.user_id)

        workspace = self.workspace.to_dict()

        workspace_id = str(self.workspace_id)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "archived": archived,
                "archivedAt": archived_at,
                "assignee": assignee,
                "assigneeId": assignee_id,
                "channel": channel,
                "coworker": coworker,
                "coworkerId": coworker_id,
                "createdAt": created_at,
                "creator": creator,
                "creatorId": creator_id,
                "credits": credits_,
                "description": description,
                "events": events,
                "files": files,
                "id": id,
                "jobs": jobs,
                "links": links,
                "metadata": metadata,
                "name": name,
                "organization": organization,
                "organizationId": organization_id,
                "origin": origin,
                "owner": owner,
                "ownerId": owner_id,
                "participants": participants,
                "projectId": project_id,
                "status": status,
                "title": title,
                "updatedAt": updated_at,
                "user": user,
                "userId": user_id,
                "workspace": workspace,
                "workspaceId": workspace_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.actor import Actor
        from ..models.assignee_ref import AssigneeRef
        from ..models.coworker_ref import CoworkerRef
        from ..models.job_file_out import JobFileOut
        from ..models.job_link_out import JobLinkOut
        from ..models.job_out import JobOut
        from ..models.named_ref import NamedRef
        from ..models.organization_ref import OrganizationRef
        from ..models.task_event_out import TaskEventOut
        from ..models.task_out_metadata import TaskOutMetadata

        d = dict(src_dict)
        archived = d.pop("archived")

        def _parse_archived_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                archived_at_type_0 = datetime.datetime.fromisoformat(data)

                return archived_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        archived_at = _parse_archived_at(d.pop("archivedAt"))

        def _parse_assignee(data: object) -> AssigneeRef | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                assignee_type_1 = AssigneeRef.from_dict(data)

                return assignee_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(AssigneeRef | None, data)

        assignee = _parse_assignee(d.pop("assignee"))

        def _parse_assignee_id(data: object) -> None | UUID:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                assignee_id_type_0 = UUID(data)

                return assignee_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | UUID, data)

        assignee_id = _parse_assignee_id(d.pop("assigneeId"))

        def _parse_channel(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        channel = _parse_channel(d.pop("channel"))

        def _parse_coworker(data: object) -> CoworkerRef | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                coworker_type_1 = CoworkerRef.from_dict(data)

                return coworker_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(CoworkerRef | None, data)

        coworker = _parse_coworker(d.pop("coworker"))

        def _parse_coworker_id(data: object) -> None | UUID:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                coworker_id_type_0 = UUID(data)

                return coworker_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | UUID, data)

        coworker_id = _parse_coworker_id(d.pop("coworkerId"))

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        creator = Actor.from_dict(d.pop("creator"))

        creator_id = UUID(d.pop("creatorId"))

        credits_ = d.pop("credits")

        description = d.pop("description")

        events = []
        _events = d.pop("events")
        for events_item_data in _events:
            events_item = TaskEventOut.from_dict(events_item_data)

            events.append(events_item)

        files = []
        _files = d.pop("files")
        for files_item_data in _files:
            files_item = JobFileOut.from_dict(files_item_data)

            files.append(files_item)

        id = UUID(d.pop("id"))

        jobs = []
        _jobs = d.pop("jobs")
        for jobs_item_data in _jobs:
            jobs_item = JobOut.from_dict(jobs_item_data)

            jobs.append(jobs_item)

        links = []
        _links = d.pop("links")
        for links_item_data in _links:
            links_item = JobLinkOut.from_dict(links_item_data)

            links.append(links_item)

        def _parse_metadata(data: object) -> None | TaskOutMetadata:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                metadata_type_0 = TaskOutMetadata.from_dict(data)

                return metadata_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | TaskOutMetadata, data)

        metadata = _parse_metadata(d.pop("metadata"))

        name = d.pop("name")

        def _parse_organization(data: object) -> None | OrganizationRef:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                organization_type_1 = OrganizationRef.from_dict(data)

                return organization_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | OrganizationRef, data)

        organization = _parse_organization(d.pop("organization"))

        def _parse_organization_id(data: object) -> None | UUID:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                organization_id_type_0 = UUID(data)

                return organization_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | UUID, data)

        organization_id = _parse_organization_id(d.pop("organizationId"))

        def _parse_origin(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        origin = _parse_origin(d.pop("origin"))

        def _parse_owner(data: object) -> NamedRef | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                owner_type_1 = NamedRef.from_dict(data)

                return owner_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(NamedRef | None, data)

        owner = _parse_owner(d.pop("owner"))

        owner_id = UUID(d.pop("ownerId"))

        participants = []
        _participants = d.pop("participants")
        for participants_item_data in _participants:
            participants_item = NamedRef.from_dict(participants_item_data)

            participants.append(participants_item)

        def _parse_project_id(data: object) -> None | UUID:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                project_id_type_0 = UUID(data)

                return project_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | UUID, data)

        project_id = _parse_project_id(d.pop("projectId"))

        status = d.pop("status")

        title = d.pop("title")

        updated_at = datetime.datetime.fromisoformat(d.pop("updatedAt"))

        def _parse_user(data: object) -> NamedRef | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                user_type_1 = NamedRef.from_dict(data)

                return user_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(NamedRef | None, data)

        user = _parse_user(d.pop("user"))

        user_id = UUID(d.pop("userId"))

        workspace = NamedRef.from_dict(d.pop("workspace"))

        workspace_id = UUID(d.pop("workspaceId"))

        task_out = cls(
            archived=archived,
            archived_at=archived_at,
            assignee=assignee,
            assignee_id=assignee_id,
            channel=channel,
            coworker=coworker,
            coworker_id=coworker_id,
            created_at=created_at,
            creator=creator,
            creator_id=creator_id,
            credits_=credits_,
            description=description,
            events=events,
            files=files,
            id=id,
            jobs=jobs,
            links=links,
            metadata=metadata,
            name=name,
            organization=organization,
            organization_id=organization_id,
            origin=origin,
            owner=owner,
            owner_id=owner_id,
            participants=participants,
            project_id=project_id,
            status=status,
            title=title,
            updated_at=updated_at,
            user=user,
            user_id=user_id,
            workspace=workspace,
            workspace_id=workspace_id,
        )

        task_out.additional_properties = d
        return task_out

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
