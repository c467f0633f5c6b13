"""MCP tools of projects (docs/projects.md)."""

from __future__ import annotations

from typing import Any, Literal

from mcp.server.mcpserver import Context

from agora.auth.principal import Permission
from agora.kit.pagination import PageParams
from agora.kit.units import Mode
from agora.mcp.runner import Tool, dump, tool_call, validated
from agora.projects import service
from agora.projects.schemas import ProjectCreate, ProjectOut, ProjectUpdate

READ, PROJECTS_WRITE = Permission.READ, Permission.PROJECTS_WRITE


async def list_projects(ctx: Context, page: int = 1, limit: int = 20) -> dict[str, Any]:
    """Projects of the current workspace, most recently updated first."""
    async with tool_call(ctx, READ) as call:
        found = await service.list_projects(
            call.session, call.principal.workspace_id, PageParams(page, limit)
        )
    return {
        "projects": [dump(ProjectOut.model_validate(p)) for p in found.items],
        "pagination": PageParams(page, limit).meta(found.total),
    }


async def create_project(ctx: Context, name: str, description: str = "") -> dict[str, Any]:
    """Create a project in the current workspace."""
    body = validated(ProjectCreate, name=name, description=description)
    async with tool_call(ctx, PROJECTS_WRITE, Mode.WRITE) as call:
        project = await service.create_project(
            call.session, call.principal.workspace_id, call.principal.user_id, body
        )
        return dump(ProjectOut.model_validate(project))


async def get_project(ctx: Context, project_id: str) -> dict[str, Any]:
    """One project of the current workspace."""
    async with tool_call(ctx, READ) as call:
        project = await service.get_project(call.session, call.principal.workspace_id, project_id)
        return dump(ProjectOut.model_validate(project))


async def update_project(
    ctx: Context, project_id: str, name: str | None = None, description: str | None = None
) -> dict[str, Any]:
    """Rename a project and/or change its description."""
    body = validated(ProjectUpdate, name=name, description=description)
    async with tool_call(ctx, PROJECTS_WRITE, Mode.WRITE) as call:
        project = await service.update_project(
            call.session, call.principal.workspace_id, project_id, body
        )
        return dump(ProjectOut.model_validate(project))


async def delete_project(ctx: Context, project_id: str) -> dict[str, Any]:
    """Delete a project; its jobs and tasks are kept and become unassigned."""
    async with tool_call(ctx, PROJECTS_WRITE, Mode.WRITE) as call:
        deleted = await service.delete_project(
            call.session, call.principal.workspace_id, project_id
        )
    return {"id": deleted, "deleted": True}


async def assign_to_project(
    ctx: Context, project_id: str, kind: Literal["job", "task"], item_id: str
) -> dict[str, Any]:
    """Put a job or task into a project (fails if it is in another project: unassign first)."""
    async with tool_call(ctx, PROJECTS_WRITE, Mode.WRITE) as call:
        project, item = await service.assign(
            call.session, call.principal.workspace_id, project_id, kind, item_id
        )
    return {f"{kind}Id": str(item), "projectId": str(project)}


async def unassign_from_project(
    ctx: Context, project_id: str, kind: Literal["job", "task"], item_id: str
) -> dict[str, Any]:
    """Take a job or task out of the project it is in."""
    async with tool_call(ctx, PROJECTS_WRITE, Mode.WRITE) as call:
        item = await service.unassign(
            call.session, call.principal.workspace_id, project_id, kind, item_id
        )
    return {f"{kind}Id": str(item), "projectId": None}


TOOLS: list[Tool] = [
    list_projects,
    create_project,
    get_project,
    update_project,
    delete_project,
    assign_to_project,
    unassign_from_project,
]
