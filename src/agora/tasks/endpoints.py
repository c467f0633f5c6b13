"""/v1/tasks, and the coworker key's /v1/coworkers/me/events (the events of the tasks assigned to
it): bearer family, Envelope B, Detailed errors. Decisions: docs/tasks.md."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, Header, Path, Query, Request, Response
from sqlalchemy.ext.asyncio import AsyncSession

from agora.auth.dependencies import (
    CoworkerKeyDep,
    JobsWriter,
    ProjectsWriter,
    Reader,
    SessionDep,
    SettingsDep,
)
from agora.coworkers.schemas import CursorQuery, LimitQuery
from agora.jobs.schemas import JobOut
from agora.kit import wire
from agora.kit.envelopes import EnvelopeB, meta_b, written_b
from agora.kit.families import bearer_router
from agora.kit.openapi import errors
from agora.kit.pagination import PageDep
from agora.models import Task
from agora.settings import Settings
from agora.tasks import listing, people, service, views
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
    event_item,
    task_item,
)

router = bearer_router(prefix="/tasks", tags=["tasks"])
coworker_router = bearer_router(prefix="/coworkers", tags=["coworkers"])

# A task's id in the path; a malformed id answers the same 404 as an unknown one, so it stays a
# string here and the service parses it.
TaskId = Annotated[str, Path(alias="taskId")]


@dataclass(frozen=True)
class Answer:
    """What a task route answers with: its request's session, settings and envelope."""

    request: Request
    session: AsyncSession
    settings: Settings

    async def task(self, task: Task) -> EnvelopeB[TaskOut]:
        """The answer of every route that returns one task: its full snapshot."""
        snapshot = await views.render_one(self.session, task, self.settings)
        return EnvelopeB[TaskOut](data=snapshot, meta=meta_b(self.request))


async def _answer(request: Request, session: SessionDep, settings: SettingsDep) -> Answer:
    return Answer(request, session, settings)


AnswerDep = Annotated[Answer, Depends(_answer)]


@router.get("", response_model=EnvelopeB[list[TaskOut]], operation_id="listTasks")
async def list_tasks(
    principal: Reader,
    answer: AnswerDep,
    paging: PageDep,
    status: Annotated[
        str | None, Query(max_length=500, description="Comma-separated statuses (either case)")
    ] = None,
    projectId: Annotated[
        str | None, Query(max_length=100, description="A project id, or null for unassigned")
    ] = None,
    archived: Annotated[
        listing.Archived, Query(description="false (default), true (only archived) or all")
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
    query = listing.TaskQuery(
        status, projectId, archived, q, scope, coworker_id=coworkerId, assignee_id=assigneeId,
        cursor=cursor,
    )  # fmt: skip
    page = await listing.list_tasks(answer.session, principal, query, paging, answer.settings)
    pagination = {
        **page.paging.meta(page.total), "cursor": cursor, "nextCursor": page.next_cursor
    }  # fmt: skip
    meta = meta_b(answer.request, pagination)
    return wire.answer(
        written_b([task_item(task) for task in page.items], meta),
        lambda: EnvelopeB[list[TaskOut]](data=page.items, meta=meta),
    )


@router.post("", status_code=201, operation_id="createTask")
async def create_task(
    body: TaskCreate, principal: ProjectsWriter, answer: AnswerDep
) -> EnvelopeB[TaskOut]:
    """Create a task in the workspace, optionally assigned to a coworker (`coworkerId`)."""
    return await answer.task(await service.create_task(answer.session, principal, body))


@router.get("/{taskId}", operation_id="getTask")
async def get_task(task_id: TaskId, principal: Reader, answer: AnswerDep) -> EnvelopeB[TaskOut]:
    """One task: the full snapshot (jobs, events, links, files, coworker, owner...)."""
    return await answer.task(await service.get_task(answer.session, principal, task_id))


@router.patch("/{taskId}", operation_id="updateTask", openapi_extra=errors(409))
async def update_task(
    task_id: TaskId, body: TaskUpdate, principal: Reader, answer: AnswerDep
) -> EnvelopeB[TaskOut]:
    """Change name (or title), description, metadata, coworkerId and/or status (at least one).
    A status move outside the table answers 409. User keys need projects:write; a coworker key
    may change the tasks assigned to it."""
    return await answer.task(await service.update_task(answer.session, principal, task_id, body))


@router.put("/{taskId}/assignee", operation_id="assignTask")
async def assign_task(
    task_id: TaskId, body: AssigneeIn, principal: ProjectsWriter, answer: AnswerDep
) -> EnvelopeB[TaskOut]:
    """Assign or reassign the task: `assigneeId` is a member of the workspace or a coworker you
    may assign (400 otherwise). The change is a task event of kind `assignment`."""
    task = await people.assign(answer.session, principal, task_id, body.assigneeId)
    return await answer.task(task)


@router.delete("/{taskId}/assignee", operation_id="unassignTask")
async def unassign_task(
    task_id: TaskId, principal: ProjectsWriter, answer: AnswerDep
) -> EnvelopeB[TaskOut]:
    """Nobody is assigned any more (idempotent)."""
    return await answer.task(await people.assign(answer.session, principal, task_id, None))


@router.post("/{taskId}/participants", operation_id="addTaskParticipant")
async def add_participant(
    task_id: TaskId, body: ParticipantIn, principal: ProjectsWriter, answer: AnswerDep
) -> EnvelopeB[TaskOut]:
    """A member of the workspace takes part in the task (idempotent)."""
    task = await people.add_participant(answer.session, principal, task_id, body.userId)
    return await answer.task(task)


@router.delete("/{taskId}/participants/{userId}", operation_id="removeTaskParticipant")
async def remove_participant(
    task_id: TaskId, userId: str, principal: ProjectsWriter, answer: AnswerDep
) -> EnvelopeB[TaskOut]:
    """The person no longer takes part (idempotent)."""
    task = await people.remove_participant(answer.session, principal, task_id, userId)
    return await answer.task(task)


@router.post("/{taskId}/archive", operation_id="archiveTask")
async def archive_task(
    task_id: TaskId, principal: ProjectsWriter, answer: AnswerDep
) -> EnvelopeB[TaskOut]:
    """Archive the task (idempotent)."""
    task = await service.set_archived(answer.session, principal, task_id, archived=True)
    return await answer.task(task)


@router.post("/{taskId}/unarchive", operation_id="unarchiveTask")
async def unarchive_task(
    task_id: TaskId, principal: ProjectsWriter, answer: AnswerDep
) -> EnvelopeB[TaskOut]:
    """Unarchive the task (idempotent)."""
    task = await service.set_archived(answer.session, principal, task_id, archived=False)
    return await answer.task(task)


@router.get("/{taskId}/events", operation_id="listTaskEvents")
async def list_events(
    task_id: TaskId, request: Request, session: SessionDep, principal: Reader
) -> EnvelopeB[list[TaskEventOut]]:
    """The task's timeline, oldest first: comments and status moves, each with its actor."""
    events = await service.list_events(session, principal, task_id)
    return EnvelopeB[list[TaskEventOut]](data=events, meta=meta_b(request))


@router.post(
    "/{taskId}/events", status_code=201, operation_id="createTaskEvent", openapi_extra=errors(409)
)
async def create_event(
    task_id: TaskId, body: TaskEventCreate, request: Request, session: SessionDep, principal: Reader
) -> EnvelopeB[TaskEventOut]:
    """Comment on the task and/or move its status (at least one)."""
    event = await service.add_event(session, principal, task_id, body)
    return EnvelopeB[TaskEventOut](data=event, meta=meta_b(request))


@router.get("/{taskId}/jobs", operation_id="listTaskJobs")
async def list_jobs(
    task_id: TaskId, principal: Reader, answer: AnswerDep
) -> EnvelopeB[list[JobOut]]:
    """The jobs created inside the task, oldest first (results as previews)."""
    jobs = await service.list_jobs(answer.session, principal, task_id, answer.settings)
    return EnvelopeB[list[JobOut]](data=jobs, meta=meta_b(answer.request))


@router.post(
    "/{taskId}/jobs", status_code=201, operation_id="createTaskJob", openapi_extra=errors(402, 409)
)
async def create_job(
    task_id: TaskId,
    body: TaskJobCreate,
    principal: JobsWriter,
    answer: AnswerDep,
    idempotency_key: Annotated[str | None, Header(alias="Idempotency-Key", max_length=200)] = None,
) -> EnvelopeB[JobOut]:
    """Hire an agent inside the task (as `POST /v1/agents/{id}/jobs`, plus `agentId`)."""
    job = await service.create_job(
        answer.session, principal, task_id, body, answer.settings, idempotency_key
    )
    return EnvelopeB[JobOut](data=job, meta=meta_b(answer.request))


@coworker_router.get(
    "/me/events", response_model=EnvelopeB[list[TaskEventOut]], operation_id="listCoworkerEvents"
)
async def my_events(
    request: Request,
    session: SessionDep,
    principal: CoworkerKeyDep,
    limit: LimitQuery = None,
    cursor: CursorQuery = None,
) -> Response:
    """Events of the tasks assigned to this coworker (not its own), oldest first. Poll with
    `cursor` = the previous `nextCursor` (it stays valid when there is nothing new)."""
    page = await service.coworker_events(session, principal, limit=limit, cursor=cursor)
    pagination = {
        "cursor": cursor,
        "limit": page.limit,
        "nextCursor": page.next_cursor,
        "previousCursor": page.previous_cursor,
        "hasMore": page.has_more,
    }
    meta = meta_b(request, pagination)
    return wire.answer(
        written_b([event_item(event) for event in page.events], meta),
        lambda: EnvelopeB[list[TaskEventOut]](data=page.events, meta=meta),
    )
