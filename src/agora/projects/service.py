"""Project rules (interface §4.1, DESIGN §3 "Projects").

A job or task is in at most one project. Assignment is one compare-and-set UPDATE (set
``project_id`` only where it is still null); when it changes nothing, the row is read to tell
404 (not visible) from 400 (archived task) from 409 (in another project) from an idempotent
re-assignment. Every change bumps the job/task's ``updated_at`` (the history feed orders by it)
and the project's. Services flush; the caller owns the transaction.
"""

from __future__ import annotations

import uuid
from typing import Literal

from sqlalchemy.ext.asyncio import AsyncSession

from agora.kit.errors import BadRequest, Conflict, NotFound
from agora.kit.fields import patch_fields, trimmed
from agora.kit.ids import fetch_by_id, parse_uuid
from agora.kit.pagination import MAX_LIMIT, MAX_PAGE, Page, PageParams
from agora.kit.timeutil import utcnow
from agora.models import Job, Project, Task
from agora.projects import repository as repo
from agora.projects.schemas import ProjectCreate, ProjectUpdate

Kind = Literal["job", "task"]
_MODELS: dict[Kind, repo.Assignable] = {"job": Job, "task": Task}
_LABELS: dict[Kind, str] = {"job": "Job", "task": "Task"}
# A CAS that loses to an unassign between its UPDATE and its read simply tries again.
_ASSIGN_ATTEMPTS = 3
ARCHIVED = "the task is archived; an archived task cannot be added to a project"


def clean_name(name: str) -> str:
    return trimmed("name", name, 200)


async def create_project(
    session: AsyncSession, workspace_id: uuid.UUID, user_id: uuid.UUID, body: ProjectCreate
) -> Project:
    project = Project(
        workspace_id=workspace_id,
        name=clean_name(body.name),
        description=body.description,
        created_by=user_id,
    )
    return await repo.add(session, project)


async def list_projects(
    session: AsyncSession, workspace_id: uuid.UUID, paging: PageParams
) -> Page[Project]:
    """A page of the workspace's projects, most recently updated first."""
    if not (1 <= paging.limit <= MAX_LIMIT and 1 <= paging.page <= MAX_PAGE):
        raise BadRequest(f"page 1 to {MAX_PAGE}, limit 1 to {MAX_LIMIT}")
    items, total = await repo.page_with_total(
        session, workspace_id, offset=paging.offset, limit=paging.limit
    )
    return Page(items, total)


async def get_project(session: AsyncSession, workspace_id: uuid.UUID, project_id: str) -> Project:
    return await fetch_by_id(
        project_id, "Project", lambda parsed: repo.get(session, workspace_id, parsed)
    )


async def choices(
    session: AsyncSession, workspace_id: uuid.UUID, limit: int, current: uuid.UUID | None = None
) -> list[Project]:
    """The projects a "Project" select offers (the first ``limit``, last changed first), with
    the ``current`` one added when it is not among them."""
    items = list((await list_projects(session, workspace_id, PageParams(1, limit))).items)
    if current is not None and all(p.id != current for p in items):
        items.append(await get_project(session, workspace_id, str(current)))
    return items


async def _locked_project(
    session: AsyncSession, workspace_id: uuid.UUID, project_id: str
) -> Project:
    return await fetch_by_id(
        project_id, "Project", lambda parsed: repo.get_for_update(session, workspace_id, parsed)
    )


async def update_project(
    session: AsyncSession, workspace_id: uuid.UUID, project_id: str, body: ProjectUpdate
) -> Project:
    given = patch_fields(body)
    project = await _locked_project(session, workspace_id, project_id)
    if "name" in given:
        project.name = clean_name(given["name"])
    if "description" in given:
        project.description = given["description"]
    project.updated_at = utcnow()
    await session.flush()
    return project


async def delete_project(session: AsyncSession, workspace_id: uuid.UUID, project_id: str) -> str:
    project = await _locked_project(session, workspace_id, project_id)
    await repo.delete_project(session, project, utcnow())
    return str(project.id)


def _resource_id(kind: Kind, value: str) -> uuid.UUID:
    parsed = parse_uuid(value)
    if parsed is None:
        raise NotFound(f"{_LABELS[kind]} {value} not found")
    return parsed


async def assign(
    session: AsyncSession, workspace_id: uuid.UUID, project_id: str, kind: Kind, resource: str
) -> tuple[uuid.UUID, uuid.UUID]:
    """Put the job/task into the project; returns (project id, job/task id). Idempotent for the same
    project (nothing changes then); 409 when it is in another project."""
    project = await _locked_project(session, workspace_id, project_id)
    resource_id = _resource_id(kind, resource)
    model, label = _MODELS[kind], _LABELS[kind]
    for _ in range(_ASSIGN_ATTEMPTS):
        now = utcnow()
        if await repo.set_project(
            session,
            model,
            workspace_id=workspace_id,
            resource_id=resource_id,
            current=None,
            target=project.id,
            now=now,
        ):
            await repo.touch(session, project, now)
            return project.id, resource_id
        found = await repo.placement(session, model, workspace_id, resource_id)
        if found is None:
            raise NotFound(f"{label} {resource} not found")
        current, archived_at, current_name = found
        if archived_at is not None:
            raise BadRequest.field("taskId", ARCHIVED)
        if current == project.id:
            return project.id, resource_id
        if current is not None:
            raise Conflict(
                f"{label} {resource_id} is already assigned to project {current} "
                f"({current_name}); unassign it there first"
            )
    raise Conflict(f"{label} {resource_id} changed concurrently; try again")


async def unassign(
    session: AsyncSession, workspace_id: uuid.UUID, project_id: str, kind: Kind, resource: str
) -> uuid.UUID:
    """Take the job/task out of the project; 404 when it is not in that project."""
    project = await _locked_project(session, workspace_id, project_id)
    resource_id = _resource_id(kind, resource)
    now = utcnow()
    if not await repo.set_project(
        session,
        _MODELS[kind],
        workspace_id=workspace_id,
        resource_id=resource_id,
        current=project.id,
        target=None,
        now=now,
    ):
        raise NotFound(f"{_LABELS[kind]} {resource} is not in project {project_id}")
    await repo.touch(session, project, now)
    return resource_id


async def move(
    session: AsyncSession,
    workspace_id: uuid.UUID,
    kind: Kind,
    resource: str,
    project_id: str | None,
) -> uuid.UUID | None:
    """Put the job/task into ``project_id`` (None: into no project), taking it out of the project
    it is in first: the web app's one-step move, in the caller's one transaction (the API keeps
    the interface's two steps). Every refusal (404 project or job/task, 400 archived task) comes
    before any change, so a page that shows the refusal and commits changes nothing; the archived
    task's refusal names ``projectId``, the page's select. The projects
    are locked in id order, so two opposite moves never deadlock. Returns the new project id."""
    resource_id = _resource_id(kind, resource)
    target = await get_project(session, workspace_id, project_id) if project_id else None
    model, label = _MODELS[kind], _LABELS[kind]
    found = await repo.placement(session, model, workspace_id, resource_id)
    if found is None:
        raise NotFound(f"{label} {resource} not found")
    current, archived_at, _name = found
    target_id = target.id if target is not None else None
    if current == target_id:
        return current
    if target_id is not None and archived_at is not None:
        raise BadRequest.field("projectId", ARCHIVED)
    for locked in sorted(p for p in (current, target_id) if p is not None):
        await _locked_project(session, workspace_id, str(locked))
    if current is not None:
        await unassign(session, workspace_id, str(current), kind, str(resource_id))
    if target_id is not None:
        await assign(session, workspace_id, str(target_id), kind, str(resource_id))
    return target_id
