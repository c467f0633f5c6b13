"""Task rules. Tasks are workspace resources: every member of the workspace may read and change
them. ``status`` is open-ended (uppercase word, e.g. PENDING, RUNNING, COMPLETED, FAILED,
CANCELLED); a task's credits are the net spend of its jobs. Archive and unarchive are
idempotent. Project assignment lives in ``agora.projects``. Every write bumps ``updated_at``
(the history feed orders by it). Services flush; the caller owns the transaction."""

from __future__ import annotations

import re
import uuid
from dataclasses import dataclass
from typing import Any, Literal

from sqlalchemy.ext.asyncio import AsyncSession

from agora.kit.errors import BadRequest
from agora.kit.fields import patch_fields, trimmed
from agora.kit.ids import fetch_by_id, parse_uuid
from agora.kit.pagination import Page, PageParams
from agora.kit.timeutil import utcnow
from agora.models import Task
from agora.tasks import repository as repo
from agora.tasks.schemas import TaskCreate, TaskOut, TaskUpdate

KNOWN_STATUSES = ("PENDING", "RUNNING", "COMPLETED", "FAILED", "CANCELLED")
_STATUS = re.compile(r"^[A-Z][A-Z0-9_]{0,39}$")
Archived = Literal["false", "true", "all"]


@dataclass(frozen=True)
class TaskFilters:
    statuses: list[str]
    project: str | None  # a project id, "null" for unassigned, None for any
    archived: Archived = "false"


def clean_status(value: str, field: str = "status") -> str:
    status = value.strip().upper()
    if not _STATUS.match(status):
        raise BadRequest.field(
            field, "must be an uppercase word such as " + ", ".join(KNOWN_STATUSES)
        )
    return status


def _clean_name(name: str) -> str:
    return trimmed("name", name, 500)


async def render(session: AsyncSession, tasks: list[Task]) -> list[TaskOut]:
    spend = await repo.spend_by_task(session, [t.id for t in tasks])
    return [TaskOut.of(t, spend.get(t.id, 0)) for t in tasks]


async def render_one(session: AsyncSession, task: Task) -> TaskOut:
    return (await render(session, [task]))[0]


async def create_task(
    session: AsyncSession, workspace_id: uuid.UUID, user_id: uuid.UUID, body: TaskCreate
) -> Task:
    task = Task(
        workspace_id=workspace_id,
        creator_id=user_id,
        name=_clean_name(body.name),
        description=body.description,
        status=clean_status(body.status),
    )
    return await repo.add(session, task)


def _conditions(workspace_id: uuid.UUID, filters: TaskFilters) -> list[Any]:
    conditions: list[Any] = [Task.workspace_id == workspace_id]
    if filters.statuses:
        conditions.append(Task.status.in_(filters.statuses))
    if filters.project == "null":
        conditions.append(Task.project_id.is_(None))
    elif filters.project is not None:
        project_id = parse_uuid(filters.project)
        if project_id is None:
            raise BadRequest.field("query.projectId", "must be a project id or the literal null")
        conditions.append(Task.project_id == project_id)
    if filters.archived == "false":
        conditions.append(Task.archived_at.is_(None))
    elif filters.archived == "true":
        conditions.append(Task.archived_at.is_not(None))
    return conditions


def parse_filters(status: str | None, project_id: str | None, archived: Archived) -> TaskFilters:
    statuses = [clean_status(s, "query.status") for s in (status or "").split(",") if s.strip()]
    return TaskFilters(statuses, project_id.strip() if project_id else None, archived)


async def list_tasks(
    session: AsyncSession, workspace_id: uuid.UUID, filters: TaskFilters, paging: PageParams
) -> Page[TaskOut]:
    conditions = _conditions(workspace_id, filters)
    total = await repo.count(session, conditions)
    tasks = await repo.page(session, conditions, offset=paging.offset, limit=paging.limit)
    return Page(await render(session, tasks), total)


async def get_task(session: AsyncSession, workspace_id: uuid.UUID, task_id: str) -> Task:
    return await fetch_by_id(
        task_id, "Task", lambda parsed: repo.get(session, workspace_id, parsed)
    )


async def _locked(session: AsyncSession, workspace_id: uuid.UUID, task_id: str) -> Task:
    return await fetch_by_id(
        task_id, "Task", lambda parsed: repo.get_for_update(session, workspace_id, parsed)
    )


async def update_task(
    session: AsyncSession, workspace_id: uuid.UUID, task_id: str, body: TaskUpdate
) -> Task:
    given = patch_fields(body)
    task = await _locked(session, workspace_id, task_id)
    if "name" in given:
        task.name = _clean_name(given["name"])
    if "description" in given:
        task.description = given["description"]
    if "status" in given:
        task.status = clean_status(given["status"])
    task.updated_at = utcnow()
    await session.flush()
    return task


async def set_archived(
    session: AsyncSession, workspace_id: uuid.UUID, task_id: str, *, archived: bool
) -> Task:
    """Idempotent: archiving an archived task (or unarchiving an active one) changes nothing.
    An archived task keeps its project; it only cannot be added to one."""
    task = await _locked(session, workspace_id, task_id)
    if (task.archived_at is not None) == archived:
        return task
    now = utcnow()
    task.archived_at = now if archived else None
    task.updated_at = now
    await session.flush()
    return task
