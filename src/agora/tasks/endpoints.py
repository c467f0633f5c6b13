"""/v1/tasks (bearer family: Envelope B, Detailed errors)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Query, Request

from agora.auth.dependencies import SessionDep, require
from agora.auth.principal import Permission, Principal
from agora.kit.envelopes import EnvelopeB, envelope_b
from agora.kit.families import bearer_router
from agora.kit.pagination import PageDep
from agora.tasks import service
from agora.tasks.schemas import TaskCreate, TaskOut, TaskUpdate

router = bearer_router(prefix="/tasks", tags=["tasks"])
Reader = Annotated[Principal, require(Permission.READ)]
Writer = Annotated[Principal, require(Permission.PROJECTS_WRITE)]


@router.get("", response_model=EnvelopeB[list[TaskOut]], operation_id="listTasks")
async def list_tasks(
    request: Request,
    session: SessionDep,
    principal: Reader,
    paging: PageDep,
    status: Annotated[
        str | None, Query(max_length=500, description="Comma-separated statuses")
    ] = None,
    projectId: Annotated[
        str | None, Query(max_length=100, description="A project id, or null for unassigned")
    ] = None,
    archived: Annotated[
        service.Archived, Query(description="false (default), true (only archived) or all")
    ] = "false",
) -> dict[str, Any]:
    """Tasks of the workspace, most recently updated first."""
    filters = service.parse_filters(status, projectId, archived)
    result = await service.list_tasks(session, principal.workspace_id, filters, paging)
    return envelope_b(request, result.items, paging.meta(result.total))


@router.post("", status_code=201, response_model=EnvelopeB[TaskOut], operation_id="createTask")
async def create_task(
    body: TaskCreate, request: Request, session: SessionDep, principal: Writer
) -> dict[str, Any]:
    """Create a task in the workspace."""
    task = await service.create_task(session, principal.workspace_id, principal.user_id, body)
    return envelope_b(request, await service.render_one(session, task))


@router.get("/{taskId}", response_model=EnvelopeB[TaskOut], operation_id="getTask")
async def get_task(
    taskId: str, request: Request, session: SessionDep, principal: Reader
) -> dict[str, Any]:
    """One task of the workspace."""
    task = await service.get_task(session, principal.workspace_id, taskId)
    return envelope_b(request, await service.render_one(session, task))


@router.patch("/{taskId}", response_model=EnvelopeB[TaskOut], operation_id="updateTask")
async def update_task(
    taskId: str, body: TaskUpdate, request: Request, session: SessionDep, principal: Writer
) -> dict[str, Any]:
    """Change name, description and/or status (at least one)."""
    task = await service.update_task(session, principal.workspace_id, taskId, body)
    return envelope_b(request, await service.render_one(session, task))


@router.post("/{taskId}/archive", response_model=EnvelopeB[TaskOut], operation_id="archiveTask")
async def archive_task(
    taskId: str, request: Request, session: SessionDep, principal: Writer
) -> dict[str, Any]:
    """Archive the task (idempotent)."""
    task = await service.set_archived(session, principal.workspace_id, taskId, archived=True)
    return envelope_b(request, await service.render_one(session, task))


@router.post("/{taskId}/unarchive", response_model=EnvelopeB[TaskOut], operation_id="unarchiveTask")
async def unarchive_task(
    taskId: str, request: Request, session: SessionDep, principal: Writer
) -> dict[str, Any]:
    """Unarchive the task (idempotent)."""
    task = await service.set_archived(session, principal.workspace_id, taskId, archived=False)
    return envelope_b(request, await service.render_one(session, task))
