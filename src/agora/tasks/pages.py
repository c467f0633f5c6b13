"""The workspace's work pages that show several domains (docs/web.md), so each lives here, in the
highest domain it shows: the history feed (tasks, jobs and conversations, filtered by project),
the project page (its tasks, the tasks to add, its jobs' feed, the coworkers and people to give
a task to) with the forms it re-renders on a refusal, and the task pages. The list of projects,
deleting one and putting a job into one are projects' alone (projects/pages.py).

Thin like every page: the feed is ``history.service.read_feed`` (the service of GET /v1/history),
projects ``projects.service``, tasks ``tasks.service`` (people on tasks ``tasks.people``,
listings ``tasks.listing``), assignable coworkers ``coworkers.service.listing``. Putting a task
into a project, moving it to another or taking it out is ``projects.service.move``: one step in
the page's one transaction. Errors a form shows on its fields (400, and 409 for a refused status
move) render in the page; any other error (404 for another workspace's ids) reaches the app's
error page.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from typing import Annotated, Any, TypeVar
from urllib.parse import urlencode

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from pydantic import BaseModel, ValidationError
from sqlalchemy.ext.asyncio import AsyncSession
from starlette.datastructures import FormData

from agora.auth.dependencies import SessionDep, SettingsDep
from agora.auth.principal import Principal
from agora.coworkers import service as coworkers
from agora.history import service as history
from agora.history.schemas import HistoryPage
from agora.kit.errors import AgoraError, BadRequest, Conflict, FieldError, NotFound
from agora.kit.pagination import PageParams
from agora.kit.units import UnitOfWorkRoute
from agora.models.statuses import ConversationState, JobStatus
from agora.projects import service as projects
from agora.projects.schemas import ProjectUpdate
from agora.settings import Settings
from agora.tasks import lifecycle, listing, people, views
from agora.tasks import service as tasks
from agora.tasks.listing import TaskPage, TaskQuery
from agora.tasks.schemas import TaskCreate, TaskEventCreate, TaskUpdate
from agora.web.render import status_label
from agora.web.shell import SignedInDep, Text, field_errors, posted, render, safe_next, text

router = APIRouter(include_in_schema=False, route_class=UnitOfWorkRoute)
PageNumber = Annotated[int, Query(alias="page", ge=1, le=10_000)]
PAGE = 20  # rows per page of tasks and the feed
SELECT_LIMIT = 100  # projects in a select, coworkers in an assign select, tasks to add


@dataclass(frozen=True)
class Screen:
    """A signed-in person's request for a work page: what every page here reads and renders
    with (its unit's session, the person, the settings)."""

    request: Request
    session: AsyncSession
    principal: Principal
    settings: Settings

    async def render(self, template: str, status_code: int = 200, **context: Any) -> HTMLResponse:
        return await render(
            self.request, self.session, self.principal, template, status_code, **context
        )


async def _screen(
    request: Request, session: SessionDep, principal: SignedInDep, settings: SettingsDep
) -> Screen:
    return Screen(request, session, principal, settings)


ScreenDep = Annotated[Screen, Depends(_screen)]


def _feed_statuses() -> list[tuple[str, str]]:
    """The history filter's choices, (value, label): every task and job status once by its
    label (CANCELED and CANCELLED are one choice sending both), then the conversation states."""
    by_label: dict[str, list[str]] = {}
    for status in dict.fromkeys([*lifecycle.STATUSES, *(s.value for s in JobStatus)]):
        by_label.setdefault(status_label(status), []).append(status)
    choices = [(",".join(words), label) for label, words in by_label.items()]
    return [*choices, *((state.value, status_label(state)) for state in ConversationState)]


FEED_STATUSES = _feed_statuses()
FEED_TYPES = ("task", "job", "conversation")
M = TypeVar("M", bound=BaseModel)


def _model(model: type[M], **data: Any) -> M:
    """A request model from form fields; its validation problems as a 400 naming each field."""
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        details = [FieldError(str(e["loc"][0]), str(e["msg"])) for e in exc.errors() if e["loc"]]
        raise BadRequest("Some fields need another value", details=details) from exc


def _errors(exc: AgoraError, field: str) -> dict[str, str]:
    """Field errors, or the whole message on ``field`` when the service named none."""
    return field_errors(exc) or {field: exc.message}


def _on(field: str, exc: AgoraError) -> dict[str, str]:
    """The (first) problem on ``field``, whichever field the service named: a one-select form."""
    return {field: next(iter(_errors(exc, field).values()))}


async def _choices(screen: Screen) -> dict[str, Any]:
    """Whom a task may be given: coworkers (not archived, whitelisted or the person's own,
    taking tasks; ``tasks.service`` re-checks on assignment) and the workspace's members."""
    found = await coworkers.listing(
        screen.session, screen.principal, scope="all", capabilities=["tasks"], limit=SELECT_LIMIT
    )
    members = await people.members(screen.session, screen.principal, SELECT_LIMIT)
    return {"coworkers": found.items, "members": members}


async def _tasks(screen: Screen, query: TaskQuery, paging: PageParams) -> TaskPage:
    """The workspace's tasks the query names (``tasks.listing``, as GET /v1/tasks), without
    their jobs (the pages do not show them)."""
    whole = replace(query, scope="workspace")
    return await listing.list_tasks(
        screen.session, screen.principal, whole, paging, screen.settings, jobs=False
    )


async def _feed(screen: Screen, query: history.FeedQuery) -> HistoryPage:
    secret = screen.settings.resolved_secret_key()
    return await history.read_feed(screen.session, screen.principal, query, secret)


# ---- history -------------------------------------------------------------------------------


@router.get("/history")
async def history_page(
    screen: ScreenDep,
    q: Text = None,
    status: Text = None,
    types: Annotated[list[str] | None, Query(max_length=3)] = None,
    scope: Text = None,
    project: Text = None,
    cursor: Annotated[str | None, Query(max_length=2000)] = None,
) -> HTMLResponse:
    """The workspace's feed (tasks, jobs, conversations), newest change first, with a project
    filter (the workspace's projects: ``projects.service``)."""
    chosen, whose = [t for t in types or [] if t], scope or "owned"
    filters = {
        "q": q or "", "status": status or "", "types": chosen, "scope": whose,
        "project": project or "",
    }  # fmt: skip
    query = history.FeedQuery(
        cursor=cursor or None, limit=PAGE, scope=whose,
        types=",".join(chosen) or None, status=status or None, project_id=project or None,
        q=q or None,
    )  # fmt: skip
    listed = await projects.list_projects(
        screen.session, screen.principal.workspace_id, PageParams(1, SELECT_LIMIT)
    )
    errors: dict[str, str] = {}
    try:
        feed = await _feed(screen, query)
        items, next_cursor = feed.items, feed.pagination.cursor
    except BadRequest as exc:
        errors = {k.replace("projectId", "project"): v for k, v in _errors(exc, "q").items()}
        items, next_cursor = [], None
    return await screen.render(
        "history.html", 400 if errors else 200, items=items,
        next_cursor=next_cursor, first=bool(cursor), filters=filters, errors=errors,
        projects=listed.items, project_names={p.id: p.name for p in listed.items},
        statuses=FEED_STATUSES, kinds=FEED_TYPES,
        query=urlencode([(k, v) for k, v in filters.items() if v], doseq=True),
    )  # fmt: skip


# ---- the project page ----------------------------------------------------------------------


async def _project_page(
    screen: Screen,
    project_id: str,
    *,
    page_number: int = 1,
    archived: bool = False,
    jobs_cursor: str | None = None,
    values: dict[str, str] | None = None,
    errors: dict[str, str] | None = None,
    status_code: int = 200,
) -> HTMLResponse:
    """The project, its tasks (and the tasks in no project, to add), its jobs' feed, and whom
    a new task may be given."""
    project = await projects.get_project(screen.session, screen.principal.workspace_id, project_id)
    paging = PageParams(page_number, PAGE)
    query = TaskQuery(project_id=str(project.id), archived="all" if archived else "false")
    listed = await _tasks(screen, query, paging)
    loose = await _tasks(screen, TaskQuery(project_id="null"), PageParams(1, SELECT_LIMIT))
    jobs = history.FeedQuery(jobs_cursor, PAGE, "workspace", "job", None, str(project.id))
    feed = await _feed(screen, jobs)
    return await screen.render(
        "project.html", status_code, project=project,
        tasks=listed.items, total=listed.total, page_number=page_number, archived=archived,
        more=paging.meta(listed.total)["hasMore"], jobs=feed.items,
        jobs_cursor=feed.pagination.cursor, **await _choices(screen),
        moves=lifecycle.TRANSITIONS, values=values or {}, errors=errors or {},
        loose=loose.items, loose_total=loose.total,
    )  # fmt: skip


@router.get("/projects/{project_id}")
async def project_page(
    project_id: str,
    screen: ScreenDep,
    page_number: PageNumber = 1,
    archived: bool = False,
    jobs: Annotated[str | None, Query(max_length=2000)] = None,
) -> HTMLResponse:
    return await _project_page(
        screen, project_id, page_number=page_number, archived=archived, jobs_cursor=jobs
    )


@router.post("/projects/{project_id}")
async def update_project(project_id: str, screen: ScreenDep) -> Response:
    """Rename the project or change its description."""
    form = await posted(screen.request)
    values = {"name": text(form, "name", 500), "description": text(form, "description")}
    try:
        body = _model(ProjectUpdate, **values)
        await projects.update_project(
            screen.session, screen.principal.workspace_id, project_id, body
        )
    except BadRequest as exc:
        errors = {f"project-{k}": v for k, v in _errors(exc, "name").items()}
        return await _project_page(screen, project_id, errors=errors, status_code=exc.status_code)
    return RedirectResponse(f"/projects/{project_id}", status_code=303)


@router.post("/projects/{project_id}/tasks")
async def create_task(project_id: str, screen: ScreenDep) -> Response:
    """A new task, created in the project (``tasks.service.create_task_in_project``)."""
    form = await posted(screen.request)
    values = {
        "name": text(form, "name", 600), "description": text(form, "description"),
        "coworkerId": text(form, "coworkerId", 100),
    }  # fmt: skip
    try:
        body = _model(
            TaskCreate, name=values["name"], description=values["description"],
            coworkerId=values["coworkerId"] or None,
        )  # fmt: skip
        task = await tasks.create_task_in_project(
            screen.session, screen.principal, project_id, body
        )
    except BadRequest as exc:
        return await _project_page(
            screen, project_id, values=values, errors=_errors(exc, "name"),
            status_code=exc.status_code,
        )  # fmt: skip
    return RedirectResponse(f"/projects/{task.project_id}", status_code=303)


@router.post("/projects/{project_id}/tasks/add")
async def add_existing_task(project_id: str, screen: ScreenDep) -> Response:
    """An existing task (not in any project, not archived) into the project; a refusal (400
    archived, 409 meanwhile put in another project) on the select."""
    form = await posted(screen.request)
    chosen = text(form, "taskId", 100).strip()
    try:
        if not chosen:
            raise BadRequest.field("taskId", "choose a task")
        workspace_id = screen.principal.workspace_id
        await projects.assign(screen.session, workspace_id, project_id, "task", chosen)
    except (BadRequest, Conflict) as exc:
        return await _project_page(
            screen, project_id, errors=_on("taskId", exc), status_code=exc.status_code
        )
    return RedirectResponse(f"/projects/{project_id}", status_code=303)


# ---- tasks ---------------------------------------------------------------------------------


@router.get("/tasks")
async def tasks_page(
    screen: ScreenDep,
    whose: Annotated[str, Query(alias="show", max_length=20)] = "mine",
    page_number: PageNumber = 1,
) -> HTMLResponse:
    """The workspace's tasks: "Assigned to me" (the default: ``GET /v1/tasks?assigneeId=me``)
    or all of them, most recently changed first, 20 a page."""
    mine = whose != "all"
    paging = PageParams(page_number, PAGE)
    listed = await _tasks(screen, TaskQuery(assignee_id="me" if mine else None), paging)
    return await screen.render(
        "tasks.html", tasks=listed.items, total=listed.total, mine=mine,
        page_number=page_number, more=paging.meta(listed.total)["hasMore"],
    )  # fmt: skip


async def _task_page(
    screen: Screen, task_id: str, *, errors: dict[str, str] | None = None, status_code: int = 200
) -> HTMLResponse:
    """The task's snapshot, its moves, whom it may be given and the projects it may go to."""
    session, workspace_id = screen.session, screen.principal.workspace_id
    task = await tasks.get_task(session, screen.principal, task_id)
    snapshot = await views.render_one(session, task, screen.settings)
    project = (
        await projects.get_project(session, workspace_id, str(task.project_id))
        if task.project_id
        else None
    )
    return await screen.render(
        "task.html", status_code, task=snapshot, project=project,
        moves=lifecycle.TRANSITIONS.get(task.status, lifecycle.STATUSES),
        **await _choices(screen), errors=errors or {},
        projects=await projects.choices(session, workspace_id, SELECT_LIMIT, task.project_id),
    )  # fmt: skip


@router.get("/tasks/{task_id}")
async def task_page(task_id: str, screen: ScreenDep) -> HTMLResponse:
    return await _task_page(screen, task_id)


async def _move(screen: Screen, task_id: str, form: FormData) -> None:
    status = text(form, "status", 40)
    if not status:
        raise BadRequest.field("status", "choose a status")
    body = _model(TaskUpdate, status=status)
    await tasks.update_task(screen.session, screen.principal, task_id, body)


async def _assign(screen: Screen, task_id: str, form: FormData) -> None:
    """The member picker: a member of the workspace or a coworker (``assigneeId``; the older
    forms' ``coworkerId`` too), or "Nobody" (empty) to unassign."""
    chosen = text(form, "assigneeId", 100) or text(form, "coworkerId", 100)
    await people.assign(screen.session, screen.principal, task_id, chosen.strip() or None)


async def _add_participant(screen: Screen, task_id: str, form: FormData) -> None:
    chosen = text(form, "userId", 100).strip()
    if not chosen:
        raise BadRequest.field("userId", "choose a person")
    await people.add_participant(screen.session, screen.principal, task_id, chosen)


async def _remove_participant(screen: Screen, task_id: str, form: FormData) -> None:
    chosen = text(form, "userId", 100)
    await people.remove_participant(screen.session, screen.principal, task_id, chosen)


async def _comment(screen: Screen, task_id: str, form: FormData) -> None:
    comment = text(form, "comment", 20_000).strip()
    if not comment:
        raise BadRequest.field("comment", "write a comment")
    body = TaskEventCreate(comment=comment)
    await tasks.add_event(screen.session, screen.principal, task_id, body)


async def _archive(screen: Screen, task_id: str, form: FormData) -> None:
    """Archive, or with ``archived=false`` unarchive; idempotent as the API."""
    archived = text(form, "archived", 10) != "false"
    await tasks.set_archived(screen.session, screen.principal, task_id, archived=archived)


async def _project(screen: Screen, task_id: str, form: FormData) -> None:
    """Into the chosen project, moved from the one it is in, or (empty choice) out of any."""
    chosen = text(form, "projectId", 100).strip() or None
    workspace_id = screen.principal.workspace_id
    await projects.move(screen.session, workspace_id, "task", task_id, chosen)


Change = Callable[[Screen, str, FormData], Awaitable[None]]
# action → (the field its problems are shown on, the change)
TASK_CHANGES: dict[str, tuple[str, Change]] = {
    "status": ("status", _move),
    "assign": ("assigneeId", _assign),
    "add-participant": ("userId", _add_participant),
    "remove-participant": ("userId", _remove_participant),
    "comment": ("comment", _comment),
    "archive": ("archived", _archive),
    "project": ("projectId", _project),
}


@router.post("/tasks/{task_id}/{action}")
async def change_task(task_id: str, action: str, screen: ScreenDep) -> Response:
    """Move, assign, comment on, archive or put into a project a task from a posted form; back
    to ``next`` (the project or the task page), or the task page with the problem on its field
    (400, or 409 for a move outside the workflow's table)."""
    if action not in TASK_CHANGES:
        raise NotFound("No route matches this path")
    field, change = TASK_CHANGES[action]
    form = await posted(screen.request)
    try:
        await change(screen, task_id, form)
    except (BadRequest, Conflict) as exc:
        return await _task_page(
            screen, task_id, errors=_errors(exc, field), status_code=exc.status_code
        )
    return RedirectResponse(safe_next(text(form, "next", 500), f"/tasks/{task_id}"), 303)
