"""/v1/projects (bearer family: Envelope B, Detailed errors; 409 in the Conflict shape)."""

from __future__ import annotations

from fastapi import Request

from agora.auth.dependencies import JobId, ProjectId, ProjectsWriter, Reader, SessionDep, TaskId
from agora.kit.envelopes import EnvelopeB, meta_b
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


@router.get("", response_model=EnvelopeB[list[ProjectOut]], operation_id="listProjects")
async def list_projects(
    request: Request, session: SessionDep, principal: Reader, paging: PageDep
) -> EnvelopeB[list[ProjectOut]]:
    """Projects of the workspace, most recently updated first (ties: id descending)."""
    result = await service.list_projects(session, principal.workspace_id, paging)
    return EnvelopeB[list[ProjectOut]](
        data=result.items, meta=meta_b(request, paging.meta(result.total))
    )


@router.post(
    "", status_code=201, response_model=EnvelopeB[ProjectOut], operation_id="createProject"
)
async def create_project(
    body: ProjectCreate, request: Request, session: SessionDep, principal: ProjectsWriter
) -> EnvelopeB[ProjectOut]:
    """Create a project in the workspace."""
    project = await service.create_project(session, principal.workspace_id, principal.user_id, body)
    return EnvelopeB[ProjectOut](data=project, meta=meta_b(request))


@router.get("/{projectId}", response_model=EnvelopeB[ProjectOut], operation_id="getProject")
async def get_project(
    project_id: ProjectId, request: Request, session: SessionDep, principal: Reader
) -> EnvelopeB[ProjectOut]:
    """One project of the workspace."""
    project = await service.get_project(session, principal.workspace_id, project_id)
    return EnvelopeB[ProjectOut](data=project, meta=meta_b(request))


@router.patch("/{projectId}", response_model=EnvelopeB[ProjectOut], operation_id="updateProject")
async def update_project(
    project_id: ProjectId,
    body: ProjectUpdate,
    request: Request,
    session: SessionDep,
    principal: ProjectsWriter,
) -> EnvelopeB[ProjectOut]:
    """Change the name and/or the description (at least one)."""
    project = await service.update_project(session, principal.workspace_id, project_id, body)
    return EnvelopeB[ProjectOut](data=project, meta=meta_b(request))


@router.delete(
    "/{projectId}", response_model=EnvelopeB[ProjectDeleted], operation_id="deleteProject"
)
async def delete_project(
    project_id: ProjectId, request: Request, session: SessionDep, principal: ProjectsWriter
) -> EnvelopeB[ProjectDeleted]:
    """Delete the project only: its jobs and tasks stay, with projectId cleared."""
    deleted = await service.delete_project(session, principal.workspace_id, project_id)
    return EnvelopeB[ProjectDeleted](data=ProjectDeleted(id=deleted), meta=meta_b(request))


@router.post(
    "/{projectId}/jobs",
    response_model=EnvelopeB[JobAssignment],
    operation_id="assignJobToProject",
    openapi_extra={"x-agora-errors": [409]},
)
async def assign_job(
    project_id: ProjectId,
    body: JobAssignmentIn,
    request: Request,
    session: SessionDep,
    principal: ProjectsWriter,
) -> EnvelopeB[JobAssignment]:
    """Assign a job (idempotent for the same project; 409 if it is in another project)."""
    placed_in, job_id = await service.assign(
        session, principal.workspace_id, project_id, "job", body.jobId
    )
    return EnvelopeB[JobAssignment](
        data=JobAssignment(job_id=job_id, project_id=placed_in), meta=meta_b(request)
    )


@router.delete(
    "/{projectId}/jobs/{jobId}",
    response_model=EnvelopeB[JobAssignment],
    operation_id="unassignJobFromProject",
)
async def unassign_job(
    project_id: ProjectId,
    job_id: JobId,
    request: Request,
    session: SessionDep,
    principal: ProjectsWriter,
) -> EnvelopeB[JobAssignment]:
    """Take the job out of the project (404 if it is not in it)."""
    moved = await service.unassign(session, principal.workspace_id, project_id, "job", job_id)
    return EnvelopeB[JobAssignment](
        data=JobAssignment(job_id=moved, project_id=None), meta=meta_b(request)
    )


@router.post(
    "/{projectId}/tasks",
    response_model=EnvelopeB[TaskAssignment],
    operation_id="assignTaskToProject",
    openapi_extra={"x-agora-errors": [409]},
)
async def assign_task(
    project_id: ProjectId,
    body: TaskAssignmentIn,
    request: Request,
    session: SessionDep,
    principal: ProjectsWriter,
) -> EnvelopeB[TaskAssignment]:
    """Assign a task (400 if archived; idempotent for the same project; 409 if elsewhere)."""
    placed_in, task_id = await service.assign(
        session, principal.workspace_id, project_id, "task", body.taskId
    )
    return EnvelopeB[TaskAssignment](
        data=TaskAssignment(task_id=task_id, project_id=placed_in), meta=meta_b(request)
    )


@router.delete(
    "/{projectId}/tasks/{taskId}",
    response_model=EnvelopeB[TaskAssignment],
    operation_id="unassignTaskFromProject",
)
async def unassign_task(
    project_id: ProjectId,
    task_id: TaskId,
    request: Request,
    session: SessionDep,
    principal: ProjectsWriter,
) -> EnvelopeB[TaskAssignment]:
    """Take the task out of the project (404 if it is not in it)."""
    moved = await service.unassign(session, principal.workspace_id, project_id, "task", task_id)
    return EnvelopeB[TaskAssignment](
        data=TaskAssignment(task_id=moved, project_id=None), meta=meta_b(request)
    )
