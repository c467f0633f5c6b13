"""API models of tasks (bearer family: Envelope B). The task snapshot has every key the
Sokosumi clients read (reference/clients.md), null where empty."""

from __future__ import annotations

from typing import Any, Literal
from uuid import UUID

from pydantic import Field, field_validator

from agora.coworkers.schemas import CoworkerRef
from agora.jobs.schemas import JobFileOut, JobLinkOut, JobOut, file_item, job_item, link_item
from agora.kit.envelopes import ApiModel
from agora.kit.schemas import Credits, Schema, UtcDateTime, wire_credits
from agora.models.statuses import TaskStatus

CHANNELS: tuple[str, ...] = (
    "SLACK",
    "TEAMS",
    "EMAIL",
    "LINEAR",
    "GITHUB",
    "WHATSAPP",
    "TELEGRAM",
    "SIGNAL",
    "DISCORD",
    "CHAT",
    "MESSENGER",
    "SOKOSUMI",
    "UNKNOWN",
)
TaskScope = Literal["owned", "workspace"]


class NamedRef(Schema):
    """Read from a ``User`` or ``Workspace`` row."""

    id: UUID
    name: str


class OrganizationRef(Schema):
    """Read from an ``Organization`` row."""

    id: UUID
    name: str
    slug: str


class Actor(Schema):
    """Read from ``tasks.service.ActorView``."""

    type: Literal["user", "coworker", "orchestrator"]
    id: UUID | None
    user: NamedRef | None = None
    coworker: CoworkerRef | None = None


class AssigneeRef(Schema):
    """Read from ``tasks.service.AssigneeView``: a member of the workspace (``type`` user, no
    slug) or a coworker (``type`` coworker, with its slug)."""

    type: Literal["user", "coworker"]
    id: UUID
    name: str
    slug: str | None


class TaskEventOut(Schema):
    """Read from ``tasks.service.ShownTaskEvent`` (a ``TaskEvent`` row and its actor)."""

    id: UUID
    task_id: UUID
    created_at: UtcDateTime
    updated_at: UtcDateTime
    status: str | None
    comment: str | None
    credits: Credits | None
    authentication_url: str | None
    metadata: dict[str, Any] | None = Field(validation_alias="meta")
    actor: Actor | None
    channel: str | None
    origin: str | None
    kind: Literal["assignment", "participants"] | None = Field(
        default=None,
        description="null for a comment or status move; assignment or participants for a "
        "change of the people on the task (what changed: `change`)",
    )
    change: dict[str, Any] | None = Field(
        default=None,
        description="assignment: {assignee, previous} (each null or {type, id, name}); "
        "participants: {added} or {removed} ({id, name})",
    )


class TaskOut(Schema):
    """Read from ``tasks.service.TaskSnapshot`` (a ``Task`` row, its people, spend, jobs and
    events)."""

    id: UUID
    created_at: UtcDateTime
    updated_at: UtcDateTime
    name: str
    title: str = Field(
        validation_alias="name", description="Same as name (the coworker runtime reads title)."
    )
    description: str
    status: str
    project_id: UUID | None
    archived: bool = Field(validation_alias="archived_at")
    archived_at: UtcDateTime | None
    workspace_id: UUID
    workspace: NamedRef
    creator_id: UUID
    creator: Actor = Field(validation_alias="creator_actor")
    user_id: UUID = Field(validation_alias="creator_id")
    user: NamedRef | None = Field(validation_alias="creator")
    owner_id: UUID = Field(validation_alias="creator_id")
    owner: NamedRef | None = Field(validation_alias="creator")
    organization_id: UUID | None
    organization: OrganizationRef | None
    coworker_id: UUID | None
    coworker: CoworkerRef | None
    assignee_id: UUID | None = Field(
        description="The member's user id or the coworker's id (see assignee.type)"
    )
    assignee: AssigneeRef | None = Field(
        description="A member of the workspace or a coworker; coworkerId is set only for a coworker"
    )
    participants: list[NamedRef] = Field(description="People taking part beside the assignee")
    origin: str | None
    channel: str | None
    metadata: dict[str, Any] | None = Field(validation_alias="meta")
    credits: Credits = Field(description="Net spend of the task's jobs plus its usage charges")
    jobs: list[JobOut]
    events: list[TaskEventOut]
    links: list[JobLinkOut] = Field(description="The links of the task's jobs")
    files: list[JobFileOut] = Field(description="The files of the task's jobs")

    @field_validator("archived", mode="before")
    @classmethod
    def _archived(cls, archived_at: object) -> bool:
        return archived_at is not None


class TaskCreate(ApiModel):
    name: str = Field(min_length=1, max_length=500)
    description: str = Field(default="", max_length=10_000)
    status: str = Field(default=TaskStatus.PENDING, min_length=1, max_length=40)
    coworkerId: str | None = Field(default=None, max_length=100)
    assigneeId: str | None = Field(
        default=None, max_length=100, description="A member's user id or a coworker's id"
    )
    origin: str | None = Field(default=None, max_length=20)
    channel: str | None = Field(default=None, max_length=20)
    metadata: dict[str, Any] | None = None


class TaskUpdate(ApiModel):
    """At least one field; ``null`` is refused."""

    name: str | None = Field(default=None, min_length=1, max_length=500)
    title: str | None = Field(default=None, min_length=1, max_length=500)
    description: str | None = Field(default=None, max_length=10_000)
    status: str | None = Field(default=None, min_length=1, max_length=40)
    coworkerId: str | None = Field(default=None, max_length=100)
    assigneeId: str | None = Field(
        default=None,
        max_length=100,
        description="A member's user id or a coworker's id (to unassign: DELETE …/assignee)",
    )
    metadata: dict[str, Any] | None = None


class AssigneeIn(ApiModel):
    assigneeId: str = Field(
        min_length=1, max_length=100, description="A member's user id or a coworker's id"
    )


class ParticipantIn(ApiModel):
    userId: str = Field(min_length=1, max_length=100, description="A member of the workspace")


class TaskEventCreate(ApiModel):
    status: str | None = Field(default=None, min_length=1, max_length=40)
    comment: str | None = Field(default=None, max_length=20_000)
    credits: float | None = Field(default=None, gt=0)
    authenticationUrl: str | None = Field(default=None, max_length=2000)
    channel: str | None = Field(default=None, max_length=20)
    origin: str | None = Field(default=None, max_length=20)
    metadata: dict[str, Any] | None = None


class TaskJobCreate(ApiModel):
    agentId: str = Field(min_length=1, max_length=100)
    inputSchema: Any = Field(
        default=None,
        description="As on POST /v1/agents/{id}/jobs: must be the agent's current one.",
    )
    inputData: dict[str, Any] | None = None
    maxCredits: float | None = Field(default=None, ge=0)
    maxAcceptedCredits: float | None = Field(default=None, ge=0)
    name: str | None = Field(default=None, max_length=500)


# ---- the snapshot's JSON, written without the models (kit/wire.py) ------------------------


def _named(row: Any) -> dict[str, Any] | None:
    return None if row is None else {"id": row.id, "name": row.name}


def _coworker(row: Any) -> dict[str, Any] | None:
    return None if row is None else {"id": row.id, "name": row.name, "slug": row.slug}


def _actor(actor: Any) -> dict[str, Any] | None:
    if actor is None:
        return None
    return {
        "type": actor.type,
        "id": actor.id,
        "user": _named(actor.user),
        "coworker": _coworker(actor.coworker),
    }


def _meta(row: Any) -> Any:
    """The ``metadata`` column, as ``TaskOut`` reads it: ``meta`` (the attribute's name, which
    rows read by attribute carry too; ``metadata`` is SQLAlchemy's on an entity), else the
    column's own name."""
    found = getattr(row, "meta", _ABSENT)
    return row.metadata if found is _ABSENT else found


_ABSENT = object()


def event_item(event: Any) -> dict[str, Any]:
    """``TaskEventOut``'s JSON for a ``tasks.service.ShownTaskEvent`` (its row read directly,
    as ``job_item`` does)."""
    row = event.row
    credits = row.credits
    return {
        "id": row.id,
        "taskId": row.task_id,
        "createdAt": row.created_at,
        "updatedAt": row.updated_at,
        "status": row.status,
        "comment": row.comment,
        "credits": None if credits is None else wire_credits(credits),
        "authenticationUrl": row.authentication_url,
        "metadata": _meta(row),
        "actor": _actor(event.actor),
        "channel": row.channel,
        "origin": row.origin,
        "kind": row.kind,
        "change": row.change,
    }


def task_item(task: Any) -> dict[str, Any]:
    """``TaskOut``'s JSON for a ``tasks.service.TaskSnapshot`` (its row read directly, as
    ``job_item`` does)."""
    row = task.row
    creator = _named(task.creator)
    assignee = task.assignee
    organization = task.organization
    return {
        "id": row.id,
        "createdAt": row.created_at,
        "updatedAt": row.updated_at,
        "name": row.name,
        "title": row.name,
        "description": row.description,
        "status": row.status,
        "projectId": row.project_id,
        "archived": row.archived_at is not None,
        "archivedAt": row.archived_at,
        "workspaceId": row.workspace_id,
        "workspace": _named(task.workspace),
        "creatorId": row.creator_id,
        "creator": _actor(task.creator_actor),
        "userId": row.creator_id,
        "user": creator,
        "ownerId": row.creator_id,
        "owner": creator,
        "organizationId": None if organization is None else organization.id,
        "organization": None
        if organization is None
        else {"id": organization.id, "name": organization.name, "slug": organization.slug},
        "coworkerId": row.coworker_id,
        "coworker": _coworker(task.coworker),
        "assigneeId": None if assignee is None else assignee.id,
        "assignee": None
        if assignee is None
        else {
            "type": assignee.type,
            "id": assignee.id,
            "name": assignee.name,
            "slug": assignee.slug,
        },
        "participants": [_named(p) for p in task.participants],
        "origin": row.origin,
        "channel": row.channel,
        "metadata": _meta(row),
        "credits": wire_credits(task.credits),
        "jobs": [job_item(job) for job in task.jobs],
        "events": [event_item(event) for event in task.events],
        "links": [link_item(link) for link in task.links],
        "files": [file_item(file) for file in task.files],
    }
