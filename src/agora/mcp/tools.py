"""The tools: each a thin, typed wrapper over the service function its REST endpoint calls.

To add one: a function here taking ``ctx: Context`` and typed arguments, whose body is
``async with run.call(ctx, Permission.X, write=...) as (session, principal):`` around one service
call, returning ``dump(output model)``. Its docstring is the tool's description.
"""

from __future__ import annotations

import asyncio
import inspect
import time
from collections.abc import Awaitable, Callable
from typing import Any, Literal

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError

from agora.agents import service as agents
from agora.agents.schemas import CategoryOut, InputSchemaOut
from agora.auth.principal import Permission
from agora.credits import service as credits
from agora.history import service as history
from agora.jobs import lifecycle
from agora.jobs import service as jobs
from agora.jobs.schemas import JobCreate, JobInputs
from agora.kit.errors import NotFound
from agora.kit.pagination import PageParams
from agora.mcp.runner import ToolRunner, dump, tool_error
from agora.projects import service as projects
from agora.projects.schemas import ProjectCreate, ProjectOut, ProjectUpdate
from agora.users import service as users
from agora.users.schemas import ProfileUpdate, UserOut

ToolFn = Callable[..., Awaitable[Any]]
MAX_WAIT_SECONDS = 60.0
WAIT_POLL_SECONDS = 0.2
READ, JOBS_WRITE = Permission.READ, Permission.JOBS_WRITE
PROJECTS_WRITE, PROFILE_WRITE = Permission.PROJECTS_WRITE, Permission.PROFILE_WRITE


def _validated(model: Any, **fields: Any) -> Any:
    """Build a request model from tool arguments; a bad value is a tool error naming the field."""
    try:
        return model(**{k: v for k, v in fields.items() if v is not None})
    except ValueError as exc:
        raise ToolError(f"400 Invalid request parameters: {exc}") from exc


def register_tools(server: MCPServer, run: ToolRunner) -> None:
    settings = run.settings

    def tool(fn: ToolFn) -> ToolFn:
        """Register ``fn`` with its docstring, dedented, as the description."""
        return server.tool(description=inspect.cleandoc(fn.__doc__ or ""))(fn)

    # ---- catalogue ------------------------------------------------------------------------

    @tool
    async def list_agents(
        ctx: Context,
        category: list[str] | None = None,
        cursor: str | None = None,
        limit: int = 20,
    ) -> dict[str, Any]:
        """Browse available (verified) agents, optionally by category slugs (any of them;
        'uncategorized' = none). Page with `cursor` = the previous `nextCursor`."""
        async with run.call(ctx, READ) as (session, _):
            page = await agents.cursor_listing(
                session,
                cursor=cursor,
                limit=max(1, min(limit, 100)),
                categories=agents.parse_category_values(category),
            )
        return {"agents": dump(page.agents), "total": page.total, "nextCursor": page.next_cursor}

    @tool
    async def get_agent(ctx: Context, agent_id: str) -> dict[str, Any]:
        """One agent: description, verification status, price (credits, fee included), tags."""
        async with run.call(ctx, READ) as (session, _):
            return dump(await agents.get_agent_out(session, agent_id))  # type: ignore[no-any-return]

    @tool
    async def get_agent_input_schema(ctx: Context, agent_id: str) -> dict[str, Any]:
        """The MIP-003 input schema of an agent: the fields `create_job` expects in input_data."""
        async with run.call(ctx, READ) as (session, _):
            agent = await agents.get_shown(session, agent_id)
            if agent.input_schema is None:
                raise tool_error(NotFound(f"Agent {agent_id} has no input schema"))
            return dump(InputSchemaOut(agentId=str(agent.id), **agent.input_schema))  # type: ignore[no-any-return]

    @tool
    async def list_categories(ctx: Context) -> list[dict[str, Any]]:
        """Every agent category (slugs usable in list_agents)."""
        async with run.call(ctx, READ) as (session, _):
            return [dump(CategoryOut.of(c)) for c in await agents.list_categories(session)]

    # ---- jobs -----------------------------------------------------------------------------

    @tool
    async def create_job(
        ctx: Context,
        agent_id: str,
        input_data: dict[str, Any],
        name: str | None = None,
        max_accepted_credits: float | None = None,
        task_id: str | None = None,
        idempotency_key: str | None = None,
    ) -> dict[str, Any]:
        """Hire an agent: input_data is validated against its input schema, the price is held
        on the workspace's credits, and the job is dispatched at once. Returns the job."""
        body = _validated(
            JobCreate,
            inputData=input_data,
            name=name,
            maxAcceptedCredits=max_accepted_credits,
            taskId=task_id,
        )
        async with run.call(ctx, JOBS_WRITE, write=True) as (session, principal):
            created = await jobs.create_job(
                session,
                principal,
                agent_id,
                body,
                settings=settings,
                idempotency_key=idempotency_key,
            )
        return dump(created.job)  # type: ignore[no-any-return]

    @tool
    async def get_job(ctx: Context, job_id: str) -> dict[str, Any]:
        """One of your jobs: status, result, price and refund, agent status."""
        async with run.call(ctx, READ) as (session, principal):
            return dump(await jobs.get_job(session, principal, job_id, settings=settings))  # type: ignore[no-any-return]

    @tool
    async def list_jobs(
        ctx: Context,
        agent_id: str | None = None,
        status: str | None = None,
        cursor: str | None = None,
        limit: int = 20,
    ) -> dict[str, Any]:
        """Your jobs in the current workspace, newest first (status: comma-separated)."""
        async with run.call(ctx, READ) as (session, principal):
            page = await jobs.list_jobs(
                session,
                principal,
                settings=settings,
                agent_id=agent_id,
                status=status,
                cursor=cursor,
                limit=limit,
            )
        return {"jobs": dump(page.jobs), "pagination": dump(page.pagination)}

    @tool
    async def wait_for_job(
        ctx: Context, job_id: str, timeout_seconds: float = 30
    ) -> dict[str, Any]:
        """Wait (at most timeout_seconds, capped at 60) until the job is finished or needs
        input (INPUT_REQUIRED); returns the job as it then stands."""
        deadline = time.monotonic() + max(0.0, min(timeout_seconds, MAX_WAIT_SECONDS))
        while True:
            async with run.call(ctx, READ) as (session, principal):
                job = await jobs.get_job(session, principal, job_id, settings=settings)
            settled = job.status in lifecycle.FINAL_STATUSES or job.status == "INPUT_REQUIRED"
            if settled or time.monotonic() >= deadline:
                return dump(job)  # type: ignore[no-any-return]
            await asyncio.sleep(WAIT_POLL_SECONDS)

    @tool
    async def get_input_request(ctx: Context, job_id: str) -> dict[str, Any]:
        """What the agent asks for when the job is INPUT_REQUIRED (statusId and input schema)."""
        async with run.call(ctx, READ) as (session, principal):
            return dump(await jobs.input_request(session, principal, job_id))  # type: ignore[no-any-return]

    @tool
    async def answer_input_request(
        ctx: Context, job_id: str, input_data: dict[str, Any], status_id: str | None = None
    ) -> dict[str, Any]:
        """Answer the agent's input request; the job goes back to RUNNING."""
        body = _validated(JobInputs, inputData=input_data, statusId=status_id)
        async with run.call(ctx, JOBS_WRITE, write=True) as (session, principal):
            out = await jobs.provide_inputs(session, principal, job_id, body, settings=settings)
        return dump(out)  # type: ignore[no-any-return]

    @tool
    async def cancel_job(ctx: Context, job_id: str) -> dict[str, Any]:
        """Cancel an unfinished job; its held credits are refunded."""
        async with run.call(ctx, JOBS_WRITE, write=True) as (session, principal):
            return dump(await jobs.cancel_job(session, principal, job_id, settings=settings))  # type: ignore[no-any-return]

    # ---- history ----------------------------------------------------------------------------

    @tool
    async def read_history(
        ctx: Context,
        cursor: str | None = None,
        limit: int = 20,
        scope: Literal["owned", "workspace"] = "owned",
        types: str | None = None,
        status: str | None = None,
        project_id: str | None = None,
        q: str | None = None,
    ) -> dict[str, Any]:
        """The time-ordered feed of tasks, jobs and conversations (newest change first).
        types: comma-separated task,job,conversation. status: task/job statuses and/or the
        conversation states active, archived. project_id: an id or 'null'. Page with cursor."""
        query = history.FeedQuery(cursor, limit, scope, types, status, project_id, q)
        async with run.call(ctx, READ) as (session, principal):
            page = await history.read_feed(
                session, principal, query, settings.resolved_secret_key()
            )
        return dump(page)  # type: ignore[no-any-return]

    # ---- projects ---------------------------------------------------------------------------

    @tool
    async def list_projects(ctx: Context, page: int = 1, limit: int = 20) -> dict[str, Any]:
        """Projects of the current workspace, most recently updated first."""
        if not (1 <= limit <= 100 and page >= 1):
            raise ToolError("400 Invalid request parameters: page >= 1, limit 1 to 100")
        async with run.call(ctx, READ) as (session, principal):
            found = await projects.list_projects(
                session, principal.workspace_id, PageParams(page, limit)
            )
        return {
            "projects": [dump(ProjectOut.of(p)) for p in found.items],
            "pagination": PageParams(page, limit).meta(found.total),
        }

    @tool
    async def create_project(ctx: Context, name: str, description: str = "") -> dict[str, Any]:
        """Create a project in the current workspace."""
        body = _validated(ProjectCreate, name=name, description=description)
        async with run.call(ctx, PROJECTS_WRITE, write=True) as (session, principal):
            project = await projects.create_project(
                session, principal.workspace_id, principal.user_id, body
            )
            return dump(ProjectOut.of(project))  # type: ignore[no-any-return]

    @tool
    async def get_project(ctx: Context, project_id: str) -> dict[str, Any]:
        """One project of the current workspace."""
        async with run.call(ctx, READ) as (session, principal):
            project = await projects.get_project(session, principal.workspace_id, project_id)
            return dump(ProjectOut.of(project))  # type: ignore[no-any-return]

    @tool
    async def update_project(
        ctx: Context, project_id: str, name: str | None = None, description: str | None = None
    ) -> dict[str, Any]:
        """Rename a project and/or change its description."""
        body = _validated(ProjectUpdate, name=name, description=description)
        async with run.call(ctx, PROJECTS_WRITE, write=True) as (session, principal):
            project = await projects.update_project(
                session, principal.workspace_id, project_id, body
            )
            return dump(ProjectOut.of(project))  # type: ignore[no-any-return]

    @tool
    async def delete_project(ctx: Context, project_id: str) -> dict[str, Any]:
        """Delete a project; its jobs and tasks are kept and become unassigned."""
        async with run.call(ctx, PROJECTS_WRITE, write=True) as (session, principal):
            deleted = await projects.delete_project(session, principal.workspace_id, project_id)
        return {"id": deleted, "deleted": True}

    @tool
    async def assign_to_project(
        ctx: Context, project_id: str, kind: Literal["job", "task"], item_id: str
    ) -> dict[str, Any]:
        """Put a job or task into a project (fails if it is in another project: unassign first)."""
        async with run.call(ctx, PROJECTS_WRITE, write=True) as (session, principal):
            project, item = await projects.assign(
                session, principal.workspace_id, project_id, kind, item_id
            )
        return {f"{kind}Id": str(item), "projectId": str(project)}

    @tool
    async def unassign_from_project(
        ctx: Context, project_id: str, kind: Literal["job", "task"], item_id: str
    ) -> dict[str, Any]:
        """Take a job or task out of the project it is in."""
        async with run.call(ctx, PROJECTS_WRITE, write=True) as (session, principal):
            item = await projects.unassign(
                session, principal.workspace_id, project_id, kind, item_id
            )
        return {f"{kind}Id": str(item), "projectId": None}

    # ---- profile and credits ------------------------------------------------------------------

    @tool
    async def get_profile(ctx: Context) -> dict[str, Any]:
        """Your profile."""
        async with run.call(ctx, READ) as (session, principal):
            return dump(UserOut.of(await users.get_user(session, principal.user_id)))  # type: ignore[no-any-return]

    @tool
    async def update_profile(
        ctx: Context,
        name: str | None = None,
        marketing_opt_in: bool | None = None,
        job_status_notifications_opt_in: bool | None = None,
    ) -> dict[str, Any]:
        """Change only the given profile fields."""
        body = _validated(
            ProfileUpdate,
            name=name,
            marketingOptIn=marketing_opt_in,
            jobStatusNotificationsOptIn=job_status_notifications_opt_in,
        )
        async with run.call(ctx, PROFILE_WRITE, write=True) as (session, principal):
            user = await users.update_profile(session, principal.user_id, body)
            return dump(UserOut.of(user))  # type: ignore[no-any-return]

    @tool
    async def get_credits(ctx: Context) -> dict[str, Any]:
        """The workspace's credit balance, held credits and recent ledger entries."""
        async with run.call(ctx, READ) as (session, principal):
            return dump(await credits.account(session, principal))  # type: ignore[no-any-return]
