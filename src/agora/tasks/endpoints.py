"""/v1/tasks (bearer family: Envelope B, Detailed errors). Decisions: docs/tasks.md."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

from fastapi import Header, Query, Request, Response

from agora.auth.dependencies import (
    JobsWriter,
    ProjectsWriter,
    Reader,
    SessionDep,
    SettingsDep,
    TaskId,
)
from agora.jobs.schemas import JobOut
from agora.kit import wire
from agora.kit.envelopes import EnvelopeB, meta_b, written_b
from agora.kit.families import bearer_router
from agora.kit.pagination import PageDep
from agora.tasks import service
from agora.tasks.schemas import (
    AssigneeIn,
    ParticipantIn,
    TaskCreate,
    TaskEventCreate,
    TaskEventOut,
    TaskJobCreate,
    TaskOut,
    TaskScope,
    TaskUpdate,
    task_item,
)

if TYPE_CHECKING:
    from agora.models import Task

router = bearer_router(prefix="/tasks", tags=["tasks"])


async def _one(
    request: Request, session: SessionDep, task: Task, settings: SettingsDep
) -> EnvelopeB[TaskOut]:
    """The answer of every route that returns one task: its full snapshot."""
    snapshot = await service.render_one(session, task, settings)
    return EnvelopeB[TaskOut](data=snapshot, meta=meta_b(request))


@router.get("", response_model=EnvelopeB[list[TaskOut]], operation_id="listTasks")
async def list_tasks(
    request: Request,
    session: SessionDep,
    principal: Reader,
    settings: SettingsDep,
    paging: PageDep,
    status: Annotated[
        str | None, Query(max_length=500, description="Comma-separated statuses (either case)")
    ] = None,
    projectId: Annotated[
        str | None, Query(max_length=100, description="A project id, or null for unassigned")
    ] = None,
    archived: Annotated[
        service.Archived, Query(description="false (default), true (only archived) or all")
    ] = "false",
    q: Annotated[str | None, Query(max_length=200, description="Name contains")] = None,
    scope: Annotated[
        TaskScope, Query(description="owned (created by you, default) or workspace")
    ] = "owned",
    coworkerId: Annotated[
        str | None, Query(max_length=100, description="Only tasks assigned to this coworker")
    ] = None,
    cursor: Annotated[
        str | None, Query(max_length=1000, description="`nextCursor` of the previous page")
    ] = None,
    assigneeId: Annotated[
        str | None,
        Query(
            max_length=100,
            description="Only tasks assigned to this member (`me`: to you; any creator, "
            "whatever the scope)",
        ),
    ] = None,
) -> Response:
    """Tasks of the workspace, most recently updated first. Page with `page` or `cursor`.
    A coworker key sees only the tasks assigned to it. Job results in the snapshots are
    previews (see JobOut.resultTruncated)."""
    filters = service.parse_filters(
        status, projectId, archived, q=q, scope=scope, coworker_id=coworkerId,
        assignee_id=assigneeId,
    )  # fmt: skip
    paging = service.paging_from_cursor(settings, principal, filters, cursor, paging)
    result = await service.list_tasks(session, principal, filters, paging, settings)
    pagination = {
        **paging.meta(result.total),
        "cursor": cursor,
        "nextCursor": service.next_cursor(settings, principal, filters, paging, result.total),
    }
    meta = meta_b(request, pagination)
    return wire.answer(
        written_b([task_item(task) for task in result.items], meta),
        lambda: EnvelopeB[list[TaskOut]](data=result.items, meta=meta),
    )


@router.post("", status_code=201, response_model=EnvelopeB[TaskOut], operation_id="createTask")
async def create_task(
    body: TaskCreate,
    request: Request,
    session: SessionDep,
    principal: ProjectsWriter,
    settings: SettingsDep,
) -> EnvelopeB[TaskOut]:
    """Create a task in the workspace, optionally assigned to a coworker (`coworkerId`)."""
    task = await service.create_task(session, principal, body)
    return await _one(request, session, task, settings)


@router.get("/{taskId}", response_model=EnvelopeB[TaskOut], operation_id="getTask")
async def get_task(
    task_id: TaskId,
    request: Request,
    session: SessionDep,
    principal: Reader,
    settings: SettingsDep,
) -> EnvelopeB[TaskOut]:
    """One task: the full snapshot (jobs, events, links, files, coworker, owner...)."""
    task = await service.get_task(session, principal, task_id)
    return await _one(request, session, task, settings)


@router.patch(
    "/{taskId}",
    response_model=EnvelopeB[TaskOut],
    operation_id="updateTask",
    openapi_extra={"x-agora-errors": [409]},
)
async def update_task(
    task_id: TaskId,
    body: TaskUpdate,
    request: Request,
    session: SessionDep,
    principal: Reader,
    settings: SettingsDep,
) -> EnvelopeB[TaskOut]:
    """Change name (or title), description, metadata, coworkerId and/or status (at least one).
    A status move outside the table answers 409. User keys need projects:write; a coworker key
    may change the tasks assigned to it."""
    task = await service.update_task(session, principal, task_id, body)
    return await _one(request, session, task, settings)


@router.put("/{taskId}/assignee", response_model=EnvelopeB[TaskOut], operation_id="assignTask")
async def assign_task(
    task_id: TaskId,
    body: AssigneeIn,
    request: Request,
    session: SessionDep,
    principal: ProjectsWriter,
    settings: SettingsDep,
) -> EnvelopeB[TaskOut]:
    """Assign or reassign the task: `assigneeId` is a member of the workspace or a coworker you
    may assign (400 otherwise). The change is a task event of kind `assignment`."""
    task = await service.assign(session, principal, task_id, body.assigneeId)
    return await _one(request, session, task, settings)


@router.delete("/{taskId}/assignee", response_model=EnvelopeB[TaskOut], operation_id="unassignTask")
async def unassign_task(
    task_id: TaskId,
    request: Request,
    session: SessionDep,
    principal: ProjectsWriter,
    settings: SettingsDep,
) -> EnvelopeB[TaskOut]:
    """Nobody is assigned any more (idempotent)."""
    task = await service.assign(session, principal, task_id, None)
    return await _one(request, session, task, settings)


@router.post(
    "/{taskId}/participants", response_model=EnvelopeB[TaskOut], operation_id="addTaskParticipant"
)
async def add_participant(
    task_id: TaskId,
    body: ParticipantIn,
    request: Request,
    session: SessionDep,
    principal: ProjectsWriter,
    settings: SettingsDep,
) -> EnvelopeB[TaskOut]:
    """A member of the workspace takes part in the task (idempotent)."""
    task = await service.add_participant(session, principal, task_id, body.userId)
    return await _one(request, session, task, settings)


@router.delete(
    "/{taskId}/participants/{userId}",
    response_model=EnvelopeB[TaskOut],
    operation_id="removeTaskParticipant",
)
async def remove_participant(
    task_id: TaskId,
    userId: str,
    request: Request,
    session: SessionDep,
    principal: ProjectsWriter,
    settings: SettingsDep,
) -> EnvelopeB[TaskOut]:
    """The person no longer takes part (idempotent)."""
    task = await service.remove_participant(session, principal, task_id, userId)
    return await _one(request, session, task, settings)


@router.post("/{taskId}/archive", response_model=EnvelopeB[TaskOut], operation_id="archiveTask")
async def archive_task(
    task_id: TaskId,
    request: Request,
    session: SessionDep,
    principal: ProjectsWriter,
    settings: SettingsDep,
) -> EnvelopeB[TaskOut]:
    """Archive the task (idempotent)."""
    task = await service.set_archived(session, principal, task_id, archived=True)
    return await _one(request, session, task, settings)


@router.post("/{taskId}/unarchive", response_model=EnvelopeB[TaskOut], operation_id="unarchiveTask")
async def unarchive_task(
    task_id: TaskId,
    request: Request,
    session: SessionDep,
    principal: ProjectsWriter,
    settings: SettingsDep,
) -> EnvelopeB[TaskOut]:
    """Unarchive the task (idempotent)."""
    task = await service.set_archived(session, principal, task_id, archived=False)
    return await _one(request, session, task, settings)


@router.get(
    "/{taskId}/events", response_model=EnvelopeB[list[TaskEventOut]], operation_id="listTaskEvents"
)
async def list_events(
    task_id: TaskId, request: Request, session: SessionDep, principal: Reader
) -> EnvelopeB[list[TaskEventOut]]:
    """The task's timeline, oldest first: comments and status moves, each with its actor."""
    events = await service.list_events(session, principal, task_id)
    return EnvelopeB[list[TaskEventOut]](data=events, meta=meta_b(request))


@router.post(
    "/{taskId}/events",
    status_code=201,
    response_model=EnvelopeB[TaskEventOut],
    operation_id="createTaskEvent",
    openapi_extra={"x-agora-errors": [409]},
)
async def create_event(
    task_id: TaskId,
    body: TaskEventCreate,
    request: Request,
    session: SessionDep,
    principal: Reader,
) -> EnvelopeB[TaskEventOut]:
    """Comment on the task and/or move its status (at least one)."""
    event = await service.add_event(session, principal, task_id, body)
    return EnvelopeB[TaskEventOut](data=event, meta=meta_b(request))


@router.get("/{taskId}/jobs", response_model=EnvelopeB[list[JobOut]], operation_id="listTaskJobs")
async def list_jobs(
    task_id: TaskId,
    request: Request,
    session: SessionDep,
    principal: Reader,
    settings: SettingsDep,
) -> EnvelopeB[list[JobOut]]:
    """The jobs created inside the task, oldest first (results as previews)."""
    jobs = await service.list_jobs(session, principal, task_id, settings)
    return EnvelopeB[list[JobOut]](data=jobs, meta=meta_b(request))


@router.post(
    "/{taskId}/jobs",
    status_code=201,
    response_model=EnvelopeB[JobOut],
    operation_id="createTaskJob",
    openapi_extra={"x-agora-errors": [402, 409]},
)
async def create_job(
    task_id: TaskId,
    body: TaskJobCreate,
    request: Request,
    session: SessionDep,
    principal: JobsWriter,
    settings: SettingsDep,
    idempotency_key: Annotated[str | None, Header(alias="Idempotency-Key", max_length=200)] = None,
) -> EnvelopeB[JobOut]:
    """Hire an agent inside the task (as `POST /v1/agents/{id}/jobs`, plus `agentId`)."""
    job = await service.create_job(session, principal, task_id, body, settings, idempotency_key)
    return EnvelopeB[JobOut](data=job, meta=meta_b(request))
