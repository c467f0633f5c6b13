from __future__ import annotations

from uuid import UUID

from pydantic import Field

from agora.kit.envelopes import ApiModel
from agora.kit.schemas import Schema, UtcDateTime


class ProjectOut(Schema):
    """Read from a ``Project`` row."""

    id: UUID
    name: str
    description: str
    workspace_id: UUID
    created_at: UtcDateTime
    updated_at: UtcDateTime


class ProjectCreate(ApiModel):
    name: str = Field(min_length=1, max_length=200)
    description: str = Field(default="", max_length=10_000)


class ProjectUpdate(ApiModel):
    """At least one field; ``null`` is refused (see service.update_project)."""

    name: str | None = Field(default=None, min_length=1, max_length=200)
    description: str | None = Field(default=None, max_length=10_000)


class ProjectDeleted(Schema):
    id: UUID
    deleted: bool = True


class JobAssignmentIn(ApiModel):
    jobId: str = Field(min_length=1, max_length=100)


class TaskAssignmentIn(ApiModel):
    taskId: str = Field(min_length=1, max_length=100)


class JobAssignment(Schema):
    """Body of assign/unassign: where the job stands now (``projectId`` null once unassigned)."""

    job_id: UUID
    project_id: UUID | None


class TaskAssignment(Schema):
    """Body of assign/unassign: where the task stands now (``projectId`` null once unassigned)."""

    task_id: UUID
    project_id: UUID | None
