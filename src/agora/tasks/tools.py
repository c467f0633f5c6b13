"""MCP tools of tasks: give coworkers tasks, follow them, hire inside them (docs/tasks.md)."""

from __future__ import annotations

from typing import Any, Literal

from mcp.server.mcpserver import Context
from mcp.types import TextContent

from agora.auth.principal import Permission
from agora.coworkers import service as coworkers
from agora.jobs.schemas import JobOut
from agora.kit.pagination import PageParams
from agora.kit.units import Mode
from agora.mcp.runner import Tool, ToolCall, as_text, dump, tool_call, validated
from agora.models import Task
from agora.models.statuses import TaskStatus
from agora.tasks import listing, people, service, views
from agora.tasks.schemas import TaskCreate, TaskEventCreate, TaskEventOut, TaskJobCreate, TaskOut

READ, JOBS_WRITE = Permission.READ, Permission.JOBS_WRITE
PROJECTS_WRITE = Permission.PROJECTS_WRITE


async def _snapshot(call: ToolCall, task: Task) -> dict[str, Any]:
    """The tool's result of an action on one task: its full snapshot."""
    return dump(TaskOut.model_validate(await views.render_one(call.session, task, call.settings)))


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
        return await _snapshot(call, task)


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
    query = listing.TaskQuery(
        status, None, "false", q, scope, coworker_id=coworker_id, coworker=coworker,
        assignee_id=assignee, cursor=cursor,
    )  # fmt: skip
    async with tool_call(ctx, READ) as call:
        page = await listing.list_tasks(
            call.session, call.principal, query, PageParams(1, limit), call.settings
        )
        return as_text([TaskOut.model_validate(t) for t in page.items])


async def get_task(ctx: Context, task_id: str) -> dict[str, Any]:
    """One task: status, coworker, jobs, events, credits."""
    async with tool_call(ctx, READ) as call:
        task = await service.get_task(call.session, call.principal, task_id)
        return await _snapshot(call, task)


async def list_task_events(ctx: Context, task_id: str) -> TextContent:
    """A task's timeline: comments and status moves, each with its actor."""
    async with tool_call(ctx, READ) as call:
        events = await service.list_events(call.session, call.principal, task_id)
        return as_text([TaskEventOut.model_validate(e) for e in events])


async def assign_task(ctx: Context, task_id: str, assignee_id: str | None = None) -> dict[str, Any]:
    """Assign or reassign a task to a member of the workspace (user id) or a coworker (id);
    without assignee_id, unassign it. The change is a task event (kind assignment)."""
    async with tool_call(ctx, READ, Mode.WRITE) as call:
        task = await people.assign(call.session, call.principal, task_id, assignee_id)
        return await _snapshot(call, task)


async def add_task_participant(ctx: Context, task_id: str, user_id: str) -> dict[str, Any]:
    """A member of the workspace takes part in the task (beside its assignee)."""
    async with tool_call(ctx, READ, Mode.WRITE) as call:
        task = await people.add_participant(call.session, call.principal, task_id, user_id)
        return await _snapshot(call, task)


async def remove_task_participant(ctx: Context, task_id: str, user_id: str) -> dict[str, Any]:
    """The person no longer takes part in the task."""
    async with tool_call(ctx, READ, Mode.WRITE) as call:
        task = await people.remove_participant(call.session, call.principal, task_id, user_id)
        return await _snapshot(call, task)


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
