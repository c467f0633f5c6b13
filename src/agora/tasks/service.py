"""Task rules (docs/tasks.md). Tasks are workspace resources: every member of the workspace may
read and change them; a coworker key reads and changes only the tasks assigned to its coworker
(tasks/access.py). ``status`` moves along the table in ``tasks.lifecycle`` (409 otherwise), and
every move and comment is a task event with an actor. A task's credits are the net spend of its
jobs plus its coworker usage. Archive and unarchive are idempotent. Project assignment lives in
``agora.projects``; the people on a task in tasks/people.py; listing in tasks/listing.py. Every
write bumps ``updated_at`` (the history feed orders by it, so events and moves surface there at
once). Services flush; the caller owns the transaction."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from agora.auth.principal import Principal, coworker_of
from agora.coworkers import service as coworkers
from agora.jobs import service as jobs_service
from agora.jobs.schemas import JobCreate
from agora.jobs.service import ShownJob
from agora.kit.errors import BadRequest, Forbidden
from agora.kit.fields import patch_fields
from agora.kit.ids import fetch_by_id
from agora.kit.money import to_base
from agora.kit.timeutil import utcnow
from agora.models import Task
from agora.projects import service as projects
from agora.settings import Settings
from agora.tasks import lifecycle, people
from agora.tasks import repository as repo
from agora.tasks.access import (
    clean_channel,
    clean_name,
    clean_status,
    locked,
    record,
    require_acting_coworker,
    require_user_writer,
    require_writer,
    visible_to,
)
from agora.tasks.schemas import TaskCreate, TaskEventCreate, TaskJobCreate, TaskUpdate
from agora.tasks.views import (
    MAX_EVENTS,
    MAX_JOBS,
    ShownTaskEvent,
    jobs_of,
    render_events,
    shown_jobs,
)

ONE_ASSIGNEE = "a task has one assignee; send one of coworkerId and assigneeId"


# ---- reading, creating and changing ----------------------------------------------------------


async def get_task(session: AsyncSession, principal: Principal, task_id: str) -> Task:
    """A task of the workspace; for a coworker key, only one assigned to it (else 404)."""
    await require_acting_coworker(session, principal)

    async def fetch(parsed: uuid.UUID) -> Task | None:
        return visible_to(await repo.get(session, principal.workspace_id, parsed), principal)

    return await fetch_by_id(task_id, "Task", fetch)


async def create_task(session: AsyncSession, principal: Principal, body: TaskCreate) -> Task:
    require_user_writer(principal)
    if body.coworkerId and body.assigneeId:
        raise BadRequest.field("assigneeId", ONE_ASSIGNEE)
    member, coworker = None, None
    if body.assigneeId:
        member, coworker = await people.assignee(session, principal, body.assigneeId, "assigneeId")
    elif body.coworkerId:
        coworker = await coworkers.assignable(session, principal, body.coworkerId)
    task = Task(
        assignee_user_id=member.id if member else None,
        workspace_id=principal.workspace_id,
        creator_id=principal.user_id,
        name=clean_name(body.name),
        description=body.description,
        status=clean_status(body.status),
        coworker_id=coworker.id if coworker else None,
        origin=clean_channel(body.origin, "origin"),
        channel=clean_channel(body.channel, "channel"),
        meta=body.metadata,
    )
    await repo.add(session, task)
    # The first event: the coworker (if any) learns of its new task from /coworkers/me/events.
    await record(
        session, task, principal, status=task.status, channel=task.channel, origin=task.origin
    )
    return task


async def create_task_in_project(
    session: AsyncSession, principal: Principal, project_id: str, body: TaskCreate
) -> Task:
    """A new task, put into the project at once (the project page's form): the project is
    looked up first (404), then the task created and assigned."""
    project = await projects.get_project(session, principal.workspace_id, project_id)
    task = await create_task(session, principal, body)
    await projects.assign(session, principal.workspace_id, str(project.id), "task", str(task.id))
    await session.refresh(task, ["project_id", "updated_at"])  # the assignment's UPDATE wrote them
    return task


async def _reassign(session: AsyncSession, principal: Principal, task: Task, given: Any) -> None:
    """``coworkerId`` or ``assigneeId`` of an update: people only, not a coworker key (403)."""
    if "coworkerId" in given and "assigneeId" in given:
        raise BadRequest.field("assigneeId", ONE_ASSIGNEE)
    if coworker_of(principal) is not None:
        raise Forbidden("A coworker key cannot reassign a task")
    if "assigneeId" in given:
        member, coworker = await people.assignee(
            session, principal, given["assigneeId"], "assigneeId"
        )
    else:
        member = None
        coworker = await coworkers.assignable(session, principal, given["coworkerId"])
    await people.set_assignee(session, principal, task, member, coworker)


async def update_task(
    session: AsyncSession, principal: Principal, task_id: str, body: TaskUpdate
) -> Task:
    require_writer(principal)
    given = patch_fields(body)
    if "name" in given and "title" in given and given["name"] != given["title"]:
        raise BadRequest.field("title", "differs from name; send one of them")
    task = await locked(session, principal, task_id)
    if "name" in given or "title" in given:
        task.name = clean_name(given.get("name", given.get("title", "")))
    if "description" in given:
        task.description = given["description"]
    if "metadata" in given:
        task.meta = given["metadata"]
    if "coworkerId" in given or "assigneeId" in given:
        await _reassign(session, principal, task, given)
    if "status" in given:
        target = clean_status(given["status"])
        lifecycle.check_move(task.status, target)
        if target != task.status:
            task.status = target
            await record(session, task, principal, status=target)
    task.updated_at = utcnow()
    await session.flush()
    return task


async def set_archived(
    session: AsyncSession, principal: Principal, task_id: str, *, archived: bool
) -> Task:
    """Idempotent: archiving an archived task (or unarchiving an active one) changes nothing.
    An archived task keeps its project; it only cannot be added to one."""
    require_user_writer(principal)
    task = await locked(session, principal, task_id)
    if (task.archived_at is not None) == archived:
        return task
    now = utcnow()
    task.archived_at = now if archived else None
    task.updated_at = now
    await session.flush()
    return task


# ---- events ----------------------------------------------------------------------------------


async def list_events(
    session: AsyncSession, principal: Principal, task_id: str
) -> list[ShownTaskEvent]:
    task = await get_task(session, principal, task_id)
    return await render_events(session, await repo.events_of(session, [task.id], MAX_EVENTS))


def _event_credits(value: float | None) -> int | None:
    if value is None:
        return None
    try:
        return to_base(value)
    except ValueError as exc:
        raise BadRequest.field("credits", str(exc)) from exc


def _event_status(body: TaskEventCreate) -> str | None:
    """The event's checked status move (if any), and its other checks."""
    if body.status is None and not (body.comment or "").strip():
        raise BadRequest.field("status", "send a status and/or a comment")
    if body.channel and body.origin and body.channel.upper() != body.origin.upper():
        raise BadRequest.field("origin", "differs from channel; send one of them")
    target = clean_status(body.status) if body.status is not None else None
    if target == lifecycle.AUTHENTICATION_REQUIRED and not body.authenticationUrl:
        raise BadRequest.field("authenticationUrl", "is required with AUTHENTICATION_REQUIRED")
    if body.authenticationUrl and not body.authenticationUrl.startswith(("https://", "http://")):
        raise BadRequest.field("authenticationUrl", "must be an http(s) URL")
    return target


async def add_event(
    session: AsyncSession, principal: Principal, task_id: str, body: TaskEventCreate
) -> ShownTaskEvent:
    """A comment and/or a status move (at least one). AUTHENTICATION_REQUIRED needs an
    authenticationUrl; ``credits`` records what the actor reports (no charge: coworkers charge
    through /coworkers/me/usage)."""
    require_writer(principal)
    target = _event_status(body)
    credits = _event_credits(body.credits)
    channel = clean_channel(body.channel or body.origin, "channel")
    task = await locked(session, principal, task_id)
    if target is not None:
        lifecycle.check_move(task.status, target)
        task.status = target
    task.updated_at = utcnow()
    event = await record(
        session, task, principal, status=target, comment=(body.comment or "").strip() or None,
        credits=credits, authentication_url=body.authenticationUrl, channel=channel,
        origin=channel, metadata=body.metadata,
    )  # fmt: skip
    await session.flush()
    return (await render_events(session, [event]))[0]


@dataclass(frozen=True)
class CoworkerEvents:
    """A page of the events addressed to a coworker (``limit``: the page size used)."""

    events: list[ShownTaskEvent]
    limit: int
    next_cursor: str | None
    previous_cursor: str | None
    has_more: bool


async def coworker_events(
    session: AsyncSession, principal: Principal, *, limit: int | None, cursor: str | None
) -> CoworkerEvents:
    """Events of the tasks assigned to the calling coworker (not its own), oldest first, after
    ``cursor`` (the previous page's last event; it stays valid when there is nothing new)."""
    coworker = await coworkers.me(session, principal)
    size = coworkers.page_size(limit)
    rows = await repo.events_addressed_to(
        session, coworker.id, principal.workspace_id, coworkers.after(cursor), size + 1
    )
    more = len(rows) > size
    rows = rows[:size]
    return CoworkerEvents(
        await render_events(session, rows),
        limit=size,
        next_cursor=str(rows[-1].id) if rows else cursor,
        previous_cursor=cursor,
        has_more=more,
    )


# ---- jobs ------------------------------------------------------------------------------------


async def list_jobs(
    session: AsyncSession, principal: Principal, task_id: str, settings: Settings
) -> list[ShownJob]:
    task = await get_task(session, principal, task_id)
    rows = await jobs_of(session, [task.id], MAX_JOBS)
    return await shown_jobs(session, rows, settings, preview=True)


async def create_job(
    session: AsyncSession,
    principal: Principal,
    task_id: str,
    body: TaskJobCreate,
    settings: Settings,
    idempotency_key: str | None = None,
) -> ShownJob:
    """Hire an agent for the task: the job belongs to the task (its credits count there). The
    job is admitted by the jobs domain's one use case (``jobs.service.create_job``)."""
    task = await get_task(session, principal, task_id)
    created = await jobs_service.create_job(
        session,
        principal,
        body.agentId,
        JobCreate(
            maxAcceptedCredits=body.maxAcceptedCredits,
            maxCredits=body.maxCredits,
            inputData=body.inputData,
            inputSchema=body.inputSchema,
            name=body.name,
            taskId=str(task.id),
        ),
        settings=settings,
        idempotency_key=idempotency_key,
    )
    return created.job
