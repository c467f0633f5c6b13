"""The web app's pages of projects alone (docs/web.md): the list of the workspace's projects and
its "new project" form, deleting a project, and putting a job into a project (the job page's
"Project" form). The project page itself shows the project's tasks and its jobs' feed, so it is
the tasks domain's (tasks/pages.py), as is renaming a project, whose refusal re-renders it.

Thin like every page: each form calls ``projects.service``; putting a job into a project, moving
it to another or taking it out is ``projects.service.move``, one step in the page's one
transaction. Errors a form shows on its fields (400) render in the page; any other error (404
for another workspace's ids) reaches the app's error page.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from pydantic import ValidationError

from agora.auth.dependencies import SessionDep
from agora.auth.principal import Principal
from agora.kit.errors import BadRequest, FieldError
from agora.kit.pagination import PageParams
from agora.kit.units import UnitOfWorkRoute
from agora.projects import service as projects
from agora.projects.schemas import ProjectCreate
from agora.web.shell import SignedInDep, field_errors, posted, render, safe_next, text

router = APIRouter(include_in_schema=False, route_class=UnitOfWorkRoute)
PageNumber = Annotated[int, Query(alias="page", ge=1, le=10_000)]
PAGE = 20  # projects a page


async def _projects_page(
    request: Request,
    session: Any,
    principal: Principal,
    page_number: int,
    *,
    values: dict[str, str] | None = None,
    errors: dict[str, str] | None = None,
    status_code: int = 200,
) -> HTMLResponse:
    paging = PageParams(page_number, PAGE)
    listed = await projects.list_projects(session, principal.workspace_id, paging)
    return await render(
        request, session, principal, "projects.html", status_code, projects=listed.items,
        total=listed.total, page_number=page_number, more=paging.meta(listed.total)["hasMore"],
        values=values or {}, errors=errors or {},
    )  # fmt: skip


@router.get("/projects")
async def projects_page(
    request: Request, session: SessionDep, principal: SignedInDep, page_number: PageNumber = 1
) -> HTMLResponse:
    return await _projects_page(request, session, principal, page_number)


def _new_project(values: dict[str, str]) -> ProjectCreate:
    """The form's fields as the API's body; its problems a 400 naming each field."""
    try:
        return ProjectCreate.model_validate(values)
    except ValidationError as exc:
        details = [FieldError(str(e["loc"][0]), str(e["msg"])) for e in exc.errors() if e["loc"]]
        raise BadRequest("Some fields need another value", details=details) from exc


@router.post("/projects")
async def create_project(request: Request, session: SessionDep, principal: SignedInDep) -> Response:
    form = await posted(request)
    values = {"name": text(form, "name", 500), "description": text(form, "description")}
    try:
        project = await projects.create_project(
            session, principal.workspace_id, principal.user_id, _new_project(values)
        )
    except BadRequest as exc:
        return await _projects_page(
            request, session, principal, 1, values=values,
            errors=field_errors(exc) or {"name": exc.message}, status_code=exc.status_code,
        )  # fmt: skip
    return RedirectResponse(f"/projects/{project.id}", status_code=303)


@router.post("/projects/{project_id}/delete")
async def delete_project(
    request: Request, project_id: str, session: SessionDep, principal: SignedInDep
) -> Response:
    """Delete the project only: its tasks and jobs stay, outside any project (as the API)."""
    await posted(request)
    await projects.delete_project(session, principal.workspace_id, project_id)
    return RedirectResponse("/projects", status_code=303)


@router.post("/jobs/{job_id}/project")
async def place_job(
    request: Request, job_id: str, session: SessionDep, principal: SignedInDep
) -> Response:
    """The job into the chosen project, moved, or out of any (the job page's "Project" form and
    the project page's "Remove from project"); back to ``next`` or the job page."""
    form = await posted(request)
    chosen = text(form, "projectId", 100).strip() or None
    await projects.move(session, principal.workspace_id, "job", job_id, chosen)
    return RedirectResponse(safe_next(text(form, "next", 500), f"/jobs/{job_id}"), 303)
