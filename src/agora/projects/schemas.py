from __future__ import annotations

from pydantic import BaseModel, Field

from agora.kit.envelopes import ApiModel
from agora.kit.timeutil import isoformat
from agora.models import Project


class ProjectOut(BaseModel):
    id: str
    name: str
    description: str
    workspaceId: str
    createdAt: str
    updatedAt: str

    @classmethod
    def of(cls, project: Project) -> ProjectOut:
        return cls(
            id=str(project.id),
            name=project.name,
            description=project.description,
            workspaceId=str(project.workspace_id),
            createdAt=isoformat(project.created_at) or "",
            updatedAt=isoformat(project.updated_at) or "",
        )


class ProjectCreate(ApiModel):
    name: str = Field(min_length=1, max_length=200)
    description: str = Field(default="", max_length=10_000)


class ProjectUpdate(ApiModel):
    """At least one field; ``null`` is refused (see service.update_project)."""

    name: str | None = Field(default=None, min_length=1, max_length=200)
    description: str | None = Field(default=None, max_length=10_000)


class ProjectDeleted(BaseModel):
    id: str
    deleted: bool = True


class JobAssignmentIn(ApiModel):
    jobId: str = Field(min_length=1, max_length=100)


class TaskAssignmentIn(ApiModel):
    taskId: str = Field(min_length=1, max_length=100)


class JobAssignment(BaseModel):
    """Body of assign/unassign: where the job stands now (``projectId`` null once unassigned)."""

    jobId: str
    projectId: str | None


class TaskAssignment(BaseModel):
    """Body of assign/unassign: where the task stands now (``projectId`` null once unassigned)."""

    taskId: str
    projectId: str | None
