"""/v1/projects (bearer family: Envelope B, Detailed errors; 409 in the Conflict shape)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Request

from agora.auth.dependencies import SessionDep, require
from agora.auth.principal import Permission, Principal
from agora.kit.envelopes import EnvelopeB, envelope_b
from agora.kit.families import bearer_router
from agora.kit.pagination import PageDep
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
Reader = Annotated[Principal, require(Permission.READ)]
Writer = Annotated[Principal, require(Permission.PROJECTS_WRITE)]


@router.get("", response_model=EnvelopeB[list[ProjectOut]], operation_id="listProjects")
async def list_projects(
    request: Request, session: SessionDep, principal: Reader, paging: PageDep
) -> dict[str, Any]:
    """Projects of the workspace, most recently updated first (ties: id descending)."""
    result = await service.list_projects(session, principal.workspace_id, paging)
    data = [ProjectOut.of(p) for p in result.items]
    return envelope_b(request, data, paging.meta(result.total))


@router.post(
    "", status_code=201, response_model=EnvelopeB[ProjectOut], operation_id="createProject"
)
async def create_project(
    body: ProjectCreate, request: Request, session: SessionDep, principal: Writer
) -> dict[str, Any]:
    """Create a project in the workspace."""
    project = await service.create_project(session, principal.workspace_id, principal.user_id, body)
    return envelope_b(request, ProjectOut.of(project))


@router.get("/{projectId}", response_model=EnvelopeB[ProjectOut], operation_id="getProject")
async def get_project(
    projectId: str, request: Request, session: SessionDep, principal: Reader
) -> dict[str, Any]:
    """One project of the workspace."""
    project = await service.get_project(session, principal.workspace_id, projectId)
    return envelope_b(request, ProjectOut.of(project))


@router.patch("/{projectId}", response_model=EnvelopeB[ProjectOut], operation_id="updateProject")
async def update_project(
    projectId: str, body: ProjectUpdate, request: Request, session: SessionDep, principal: Writer
) -> dict[str, Any]:
    """Change the name and/or the description (at least one)."""
    project = await service.update_project(session, principal.workspace_id, projectId, body)
    return envelope_b(request, ProjectOut.of(project))


@router.delete(
    "/{projectId}", response_model=EnvelopeB[ProjectDeleted], operation_id="deleteProject"
)
async def delete_project(
    projectId: str, request: Request, session: SessionDep, principal: Writer
) -> dict[str, Any]:
    """Delete the project only: its jobs and tasks stay, with projectId cleared."""
    deleted = await service.delete_project(session, principal.workspace_id, projectId)
    return envelope_b(request, ProjectDeleted(id=deleted))


@router.post(
    "/{projectId}/jobs",
    response_model=EnvelopeB[JobAssignment],
    operation_id="assignJobToProject",
    openapi_extra={"x-agora-errors": [409]},
)
async def assign_job(
    projectId: str, body: JobAssignmentIn, request: Request, session: SessionDep, principal: Writer
) -> dict[str, Any]:
    """Assign a job (idempotent for the same project; 409 if it is in another project)."""
    project_id, job_id = await service.assign(
        session, principal.workspace_id, projectId, "job", body.jobId
    )
    return envelope_b(request, JobAssignment(jobId=str(job_id), projectId=str(project_id)))


@router.delete(
    "/{projectId}/jobs/{jobId}",
    response_model=EnvelopeB[JobAssignment],
    operation_id="unassignJobFromProject",
)
async def unassign_job(
    projectId: str, jobId: str, request: Request, session: SessionDep, principal: Writer
) -> dict[str, Any]:
    """Take the job out of the project (404 if it is not in it)."""
    job_id = await service.unassign(session, principal.workspace_id, projectId, "job", jobId)
    return envelope_b(request, JobAssignment(jobId=str(job_id), projectId=None))


@router.post(
    "/{projectId}/tasks",
    response_model=EnvelopeB[TaskAssignment],
    operation_id="assignTaskToProject",
    openapi_extra={"x-agora-errors": [409]},
)
async def assign_task(
    projectId: str,
    body: TaskAssignmentIn,
    request: Request,
    session: SessionDep,
    principal: Writer,
) -> dict[str, Any]:
    """Assign a task (400 if archived; idempotent for the same project; 409 if elsewhere)."""
    project_id, task_id = await service.assign(
        session, principal.workspace_id, projectId, "task", body.taskId
    )
    return envelope_b(request, TaskAssignment(taskId=str(task_id), projectId=str(project_id)))


@router.delete(
    "/{projectId}/tasks/{taskId}",
    response_model=EnvelopeB[TaskAssignment],
    operation_id="unassignTaskFromProject",
)
async def unassign_task(
    projectId: str, taskId: str, request: Request, session: SessionDep, principal: Writer
) -> dict[str, Any]:
    """Take the task out of the project (404 if it is not in it)."""
    task_id = await service.unassign(session, principal.workspace_id, projectId, "task", taskId)
    return envelope_b(request, TaskAssignment(taskId=str(task_id), projectId=None))
