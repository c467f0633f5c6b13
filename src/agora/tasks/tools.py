"""MCP tools of tasks: give coworkers tasks, follow them, hire inside them (docs/tasks.md)."""

from __future__ import annotations

from typing import Any, Literal

from mcp.server.mcpserver import Context
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import TextContent

from agora.auth.principal import Permission
from agora.coworkers import service as coworkers
from agora.jobs.schemas import JobOut
from agora.kit.pagination import PageParams
from agora.kit.units import Mode
from agora.mcp.runner import Tool, as_text, dump, tool_call, validated
from agora.models.statuses import TaskStatus
from agora.tasks import service
from agora.tasks.schemas import TaskCreate, TaskEventCreate, TaskEventOut, TaskJobCreate, TaskOut

READ, JOBS_WRITE = Permission.READ, Permission.JOBS_WRITE
PROJECTS_WRITE = Permission.PROJECTS_WRITE


async def create_coworker_task(
    ctx: Context,
    coworker: str,
    description: str,
    name: str | None = None,
    status: str = TaskStatus.READY,
) -> dict[str, Any]:
    """Give a coworker (id, slug or name) a task; name defaults to the description's first
    line. status: READY (default) or DRAFT."""
    title = (name or description.strip().splitlines()[0] if description.strip() else "")[:200]
    async with tool_call(ctx, PROJECTS_WRITE, Mode.WRITE) as call:
        found = await coworkers.find(call.session, call.principal, coworker)
        body = validated(
            TaskCreate,
            name=title or f"Task for {found.name}",
            description=description,
            status=status,
            coworkerId=str(found.id),
        )
        task = await service.create_task(call.session, call.principal, body)
        snapshot = await service.render_one(call.session, task, call.settings)
        return dump(TaskOut.model_validate(snapshot))


async def list_tasks(
    ctx: Context,
    q: str | None = None,
    status: str | None = None,
    scope: Literal["owned", "workspace"] = "owned",
    coworker: str | None = None,
    coworker_id: str | None = None,
    limit: int = 20,
    cursor: str | None = None,
    assignee: str | None = None,
) -> TextContent:
    """Tasks, most recently updated first: yours (scope owned) or the workspace's. q: name
    contains; status: comma-separated; coworker: id, slug or name; assignee: "me" (my
    tasks) or a member's user id (any creator, whatever the scope)."""
    if scope not in ("owned", "workspace"):
        raise ToolError("400 Invalid request parameters: scope must be owned or workspace")
    if not 1 <= limit <= 100:
        raise ToolError("400 Invalid request parameters: limit must be 1 to 100")
    async with tool_call(ctx, READ) as call:
        if coworker is not None:
            found = await coworkers.find(call.session, call.principal, coworker)
            if coworker_id is not None and coworker_id != str(found.id):
                raise ToolError("400 Invalid request parameters: coworker and coworker_id differ")
            coworker_id = str(found.id)
        filters = service.parse_filters(
            status,
            None,
            "false",
            q=q,
            scope=scope,
            coworker_id=coworker_id,
            assignee_id=assignee,
        )
        paging = service.paging_from_cursor(
            call.settings, call.principal, filters, cursor, PageParams(1, limit)
        )
        page = await service.list_tasks(
            call.session, call.principal, filters, paging, call.settings
        )
        return as_text([TaskOut.model_validate(t) for t in page.items])


async def get_task(ctx: Context, task_id: str) -> dict[str, Any]:
    """One task: status, coworker, jobs, events, credits."""
    async with tool_call(ctx, READ) as call:
        task = await service.get_task(call.session, call.principal, task_id)
        snapshot = await service.render_one(call.session, task, call.settings)
        return dump(TaskOut.model_validate(snapshot))


async def list_task_events(ctx: Context, task_id: str) -> TextContent:
    """A task's timeline: comments and status moves, each with its actor."""
    async with tool_call(ctx, READ) as call:
        events = await service.list_events(call.session, call.principal, task_id)
        return as_text([TaskEventOut.model_validate(e) for e in events])


async def assign_task(ctx: Context, task_id: str, assignee_id: str | None = None) -> dict[str, Any]:
    """Assign or reassign a task to a member of the workspace (user id) or a coworker (id);
    without assignee_id, unassign it. The change is a task event (kind assignment)."""
    async with tool_call(ctx, READ, Mode.WRITE) as call:
        task = await service.assign(call.session, call.principal, task_id, assignee_id)
        snapshot = await service.render_one(call.session, task, call.settings)
        return dump(TaskOut.model_validate(snapshot))


async def add_task_participant(ctx: Context, task_id: str, user_id: str) -> dict[str, Any]:
    """A member of the workspace takes part in the task (beside its assignee)."""
    async with tool_call(ctx, READ, Mode.WRITE) as call:
        task = await service.add_participant(call.session, call.principal, task_id, user_id)
        snapshot = await service.render_one(call.session, task, call.settings)
        return dump(TaskOut.model_validate(snapshot))


async def remove_task_participant(ctx: Context, task_id: str, user_id: str) -> dict[str, Any]:
    """The person no longer takes part in the task."""
    async with tool_call(ctx, READ, Mode.WRITE) as call:
        task = await service.remove_participant(call.session, call.principal, task_id, user_id)
        snapshot = await service.render_one(call.session, task, call.settings)
        return dump(TaskOut.model_validate(snapshot))


async def list_task_jobs(ctx: Context, task_id: str) -> TextContent:
    """The jobs hired inside a task."""
    async with tool_call(ctx, READ) as call:
        task_jobs = await service.list_jobs(call.session, call.principal, task_id, call.settings)
        return as_text([JobOut.model_validate(j) for j in task_jobs])


async def create_task_event(
    ctx: Context,
    task_id: str,
    comment: str | None = None,
    status: str | None = None,
    credits: float | None = None,
    authentication_url: str | None = None,
) -> dict[str, Any]:
    """Comment on a task and/or move its status (at least one). AUTHENTICATION_REQUIRED
    needs authentication_url."""
    body = validated(
        TaskEventCreate,
        comment=comment,
        status=status,
        credits=credits,
        authenticationUrl=authentication_url,
    )
    async with tool_call(ctx, READ, Mode.WRITE) as call:
        event = await service.add_event(call.session, call.principal, task_id, body)
        return dump(TaskEventOut.model_validate(event))


async def add_job_to_task(
    ctx: Context,
    task_id: str,
    agent_id: str,
    max_accepted_credits: float,
    input_data: dict[str, Any] | None = None,
    name: str | None = None,
) -> dict[str, Any]:
    """Hire an agent inside a task (its credits count on the task)."""
    body = validated(
        TaskJobCreate,
        agentId=agent_id,
        maxAcceptedCredits=max_accepted_credits,
        inputData=input_data,
        name=name,
    )
    async with tool_call(ctx, JOBS_WRITE, Mode.WRITE) as call:
        job = await service.create_job(call.session, call.principal, task_id, body, call.settings)
        return dump(JobOut.model_validate(job))


TOOLS: list[Tool] = [
    create_coworker_task,
    list_tasks,
    get_task,
    list_task_events,
    assign_task,
    add_task_participant,
    remove_task_participant,
    list_task_jobs,
    create_task_event,
    add_job_to_task,
]
