from __future__ import annotations

from pydantic import BaseModel, Field

from agora.kit.envelopes import ApiModel
from agora.kit.money import to_display
from agora.kit.timeutil import isoformat
from agora.models import Task


class TaskOut(BaseModel):
    id: str
    name: str
    description: str
    status: str
    projectId: str | None
    archived: bool
    archivedAt: str | None
    workspaceId: str
    creatorId: str
    credits: float = Field(description="Net credit spend of the task's jobs, in display units")
    createdAt: str
    updatedAt: str

    @classmethod
    def of(cls, task: Task, spend: int) -> TaskOut:
        return cls(
            id=str(task.id),
            name=task.name,
            description=task.description,
            status=task.status,
            projectId=str(task.project_id) if task.project_id else None,
            archived=task.archived_at is not None,
            archivedAt=isoformat(task.archived_at),
            workspaceId=str(task.workspace_id),
            creatorId=str(task.creator_id),
            credits=to_display(spend),
            createdAt=isoformat(task.created_at) or "",
            updatedAt=isoformat(task.updated_at) or "",
        )


class TaskCreate(ApiModel):
    name: str = Field(min_length=1, max_length=500)
    description: str = Field(default="", max_length=10_000)
    status: str = Field(default="PENDING", min_length=1, max_length=40)


class TaskUpdate(ApiModel):
    """At least one field; ``null`` is refused."""

    name: str | None = Field(default=None, min_length=1, max_length=500)
    description: str | None = Field(default=None, max_length=10_000)
    status: str | None = Field(default=None, min_length=1, max_length=40)
