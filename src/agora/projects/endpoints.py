"""/v1/projects (bearer family: Envelope B, Detailed errors; 409 in the Conflict shape)."""

from __future__ import annotations

from typing import Annotated

from fastapi import Path, Request

from agora.auth.dependencies import ProjectsWriter, Reader, SessionDep
from agora.kit.envelopes import EnvelopeB, meta_b
from agora.kit.families import bearer_router
from agora.kit.openapi import errors
from agora.kit.pagination import PageDep
from agora.models import Project
from agora.projects import service
from agora.projects.schemas import (
    JobAssignment,
    JobAssignmentIn,
    ProjectCreate,
    ProjectDeleted,
    ProjectOut,
    ProjectUpdate,
    TaskAssignment,
    TaskAssignmentIn,
)

router = bearer_router(prefix="/projects", tags=["projects"])

# Ids in the path: a malformed id answers the same 404 as an unknown one (or one of another
# workspace), so they stay strings here and the service parses them.
ProjectId = Annotated[str, Path(alias="projectId")]
JobId = Annotated[str, Path(alias="jobId")]
TaskId = Annotated[str, Path(alias="taskId")]


def _one(request: Request, project: Project) -> EnvelopeB[ProjectOut]:
    return EnvelopeB[ProjectOut](data=project, meta=meta_b(request))


@router.get("", operation_id="listProjects")
async def list_projects(
    request: Request, session: SessionDep, principal: Reader, paging: PageDep
) -> EnvelopeB[list[ProjectOut]]:
    """Projects of the workspace, most recently updated first (ties: id descending)."""
    found = await service.list_projects(session, principal.workspace_id, paging)
    meta = meta_b(request, paging.meta(found.total))
    return EnvelopeB[list[ProjectOut]](data=found.items, meta=meta)


@router.post("", status_code=201, operation_id="createProject")
async def create_project(
    body: ProjectCreate, request: Request, session: SessionDep, principal: ProjectsWriter
) -> EnvelopeB[ProjectOut]:
    """Create a project in the workspace."""
    project = await service.create_project(session, principal.workspace_id, principal.user_id, body)
    return _one(request, project)


@router.get("/{projectId}", operation_id="getProject")
async def get_project(
    project_id: ProjectId, request: Request, session: SessionDep, principal: Reader
) -> EnvelopeB[ProjectOut]:
    """One project of the workspace."""
    return _one(request, await service.get_project(session, principal.workspace_id, project_id))


@router.patch("/{projectId}", operation_id="updateProject")
async def update_project(
    project_id: ProjectId,
    body: ProjectUpdate,
    request: Request,
    session: SessionDep,
    principal: ProjectsWriter,
) -> EnvelopeB[ProjectOut]:
    """Change the name and/or the description (at least one)."""
    project = await service.update_project(session, principal.workspace_id, project_id, body)
    return _one(request, project)


@router.delete("/{projectId}", operation_id="deleteProject")
async def delete_project(
    project_id: ProjectId, request: Request, session: SessionDep, principal: ProjectsWriter
) -> EnvelopeB[ProjectDeleted]:
    """Delete the project only: its jobs and tasks stay, with projectId cleared."""
    deleted = await service.delete_project(session, principal.workspace_id, project_id)
    return EnvelopeB[ProjectDeleted](data=ProjectDeleted(id=deleted), meta=meta_b(request))


@router.post("/{projectId}/jobs", operation_id="assignJobToProject", openapi_extra=errors(409))
async def assign_job(
    project_id: ProjectId,
    body: JobAssignmentIn,
    request: Request,
    session: SessionDep,
    principal: ProjectsWriter,
) -> EnvelopeB[JobAssignment]:
    """Assign a job (idempotent for the same project; 409 if it is in another project)."""
    placed_in, job = await service.assign(
        session, principal.workspace_id, project_id, "job", body.jobId
    )
    data = JobAssignment(job_id=job, project_id=placed_in)
    return EnvelopeB[JobAssignment](data=data, meta=meta_b(request))


@router.delete("/{projectId}/jobs/{jobId}", operation_id="unassignJobFromProject")
async def unassign_job(
    project_id: ProjectId,
    job_id: JobId,
    request: Request,
    session: SessionDep,
    principal: ProjectsWriter,
) -> EnvelopeB[JobAssignment]:
    """Take the job out of the project (404 if it is not in it)."""
    job = await service.unassign(session, principal.workspace_id, project_id, "job", job_id)
    data = JobAssignment(job_id=job, project_id=None)
    return EnvelopeB[JobAssignment](data=data, meta=meta_b(request))


@router.post("/{projectId}/tasks", operation_id="assignTaskToProject", openapi_extra=errors(409))
async def assign_task(
    project_id: ProjectId,
    body: TaskAssignmentIn,
    request: Request,
    session: SessionDep,
    principal: ProjectsWriter,
) -> EnvelopeB[TaskAssignment]:
    """Assign a task (400 if archived; idempotent for the same project; 409 if elsewhere)."""
    placed_in, task = await service.assign(
        session, principal.workspace_id, project_id, "task", body.taskId
    )
    data = TaskAssignment(task_id=task, project_id=placed_in)
    return EnvelopeB[TaskAssignment](data=data, meta=meta_b(request))


@router.delete("/{projectId}/tasks/{taskId}", operation_id="unassignTaskFromProject")
async def unassign_task(
    project_id: ProjectId,
    task_id: TaskId,
    request: Request,
    session: SessionDep,
    principal: ProjectsWriter,
) -> EnvelopeB[TaskAssignment]:
    """Take the task out of the project (404 if it is not in it)."""
    task = await service.unassign(session, principal.workspace_id, project_id, "task", task_id)
    data = TaskAssignment(task_id=task, project_id=None)
    return EnvelopeB[TaskAssignment](data=data, meta=meta_b(request))
