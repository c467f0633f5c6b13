"""The tools: each a thin, typed wrapper over the service function its REST endpoint calls.

To add one: a function here taking ``ctx: Context`` and typed arguments, whose body is
``async with run.call(ctx, Permission.X, write=...) as (session, principal):`` around one service
call, returning ``dump(output model)``. Its docstring is the tool's description.
"""

from __future__ import annotations

import asyncio
import inspect
import json
import time
from collections.abc import Awaitable, Callable
from typing import Any, Literal

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import TextContent

from agora.agents import service as agents
from agora.agents.schemas import AgentOut, CategoryOut, ComparedAgentOut, InputSchemaOut
from agora.auth.principal import Permission
from agora.billing import service as billing
from agora.billing import stripe_api
from agora.billing.schemas import PackOut, PurchaseOut
from agora.coworkers import service as coworkers
from agora.coworkers.schemas import CAPABILITIES, CoworkerOut
from agora.credits import service as credits
from agora.credits.schemas import CreditsOut
from agora.history import service as history
from agora.jobs import lifecycle
from agora.jobs import service as jobs
from agora.jobs.schemas import (
    JobCreate,
    JobEventOut,
    JobFileOut,
    JobInputs,
    JobLinkOut,
    JobOut,
)
from agora.kit.errors import BadRequest, NotFound
from agora.kit.ids import parse_uuid
from agora.kit.pagination import PageParams
from agora.mcp.runner import ToolRunner, dump, tool_error
from agora.mcp.schedule_tools import register_schedule_tools
from agora.models.statuses import JobStatus, TaskStatus
from agora.notifications import service as notifications
from agora.projects import service as projects
from agora.projects.schemas import ProjectCreate, ProjectOut, ProjectUpdate
from agora.ratings import service as ratings
from agora.ratings.schemas import RatingCreate, RatingOut, RatingUpdate
from agora.tasks import service as tasks
from agora.tasks.schemas import (
    TaskCreate,
    TaskEventCreate,
    TaskEventOut,
    TaskJobCreate,
    TaskOut,
)
from agora.users import service as users
from agora.users.schemas import ProfileUpdate, UserOut

ToolFn = Callable[..., Awaitable[Any]]
MAX_WAIT_SECONDS = 60.0
SEARCH_PAGES = 10  # search reads at most 1 000 agents
WAIT_POLL_SECONDS = 0.2
MAX_WAIT_POLL_SECONDS = 1.0
# Long-polling is bounded: concurrent wait_for_job calls per key and per process.
MAX_WAITS_PER_KEY = 2
MAX_WAITS = 32
_WAITS: dict[str, int] = {}
READ, JOBS_WRITE = Permission.READ, Permission.JOBS_WRITE
PROJECTS_WRITE, PROFILE_WRITE = Permission.PROJECTS_WRITE, Permission.PROFILE_WRITE


def as_text(value: Any) -> TextContent:
    """A list result as one JSON text (an empty list stays visible as ``[]``)."""
    return TextContent(type="text", text=json.dumps(dump(value), ensure_ascii=False, indent=2))


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
    ) -> TextContent:
        """Browse available (verified) agents, optionally by category slugs (any of them;
        'uncategorized' = none). Returns the agents (as the API's data); page with `cursor` =
        the id of the last agent you got."""
        async with run.call(ctx, READ) as (session, _):
            page = await agents.cursor_listing(
                session,
                cursor=cursor,
                limit=max(1, min(limit, 100)),
                categories=agents.parse_category_values(category),
            )
        return as_text([AgentOut.model_validate(a) for a in page.agents])

    @tool
    async def get_agent(ctx: Context, agent_id: str) -> dict[str, Any]:
        """One agent: description, verification status, price (credits, fee included), tags."""
        async with run.call(ctx, READ) as (session, _):
            return dump(AgentOut.model_validate(await agents.get_listed(session, agent_id)))  # type: ignore[no-any-return]

    @tool
    async def get_agent_input_schema(ctx: Context, agent_id: str) -> dict[str, Any]:
        """The MIP-003 input schema of an agent: the fields `create_job` expects in input_data."""
        async with run.call(ctx, READ) as (session, _):
            agent = await agents.get_shown(session, agent_id)
            if agent.input_schema is None:
                raise tool_error(NotFound(f"Agent {agent_id} has no input schema"))
            return dump(InputSchemaOut(agentId=str(agent.id), **agent.input_schema))  # type: ignore[no-any-return]

    @tool
    async def list_categories(ctx: Context) -> TextContent:
        """Every agent category (slugs usable in list_agents), with its number of agents."""
        async with run.call(ctx, READ) as (session, _):
            categories = await agents.list_categories(session)
            counted = await agents.counted_categories(session, categories)
            return as_text([CategoryOut.model_validate(c) for c in counted])

    @tool
    async def search_agents(
        ctx: Context,
        query: str | None = None,
        sort: str | None = None,
        category: list[str] | None = None,
        favourites: bool = False,
        hired_before: bool = False,
        featured: bool = False,
        cursor: str | None = None,
        limit: int = 20,
    ) -> TextContent:
        """Find available agents. query: text in name, description or tags. sort: relevance
        (needs query), rating (Bayesian average of the stars), popularity (completed jobs, last
        30 days), newest, price (lowest first), featured. favourites / hired_before: only your
        favourite agents / agents you hired before. Each agent has `rating` (average, count,
        distribution, score). Page with `cursor` = the previous answer's `nextCursor`."""
        async with run.call(ctx, READ) as (session, principal):
            person = (
                agents.PersonFilters(principal.user_id, favourites, hired_before)
                if favourites or hired_before
                else None
            )
            page = await agents.cursor_listing(
                session,
                cursor=cursor,
                limit=max(1, min(limit, 100)),
                categories=agents.parse_category_values(category),
                q=query,
                sort=sort,
                featured=featured,
                person=person,
            )
        return as_text(
            {
                "agents": [dump(AgentOut.model_validate(a)) for a in page.agents],
                "total": page.total,
                "nextCursor": page.next_cursor,
            }
        )

    @tool
    async def compare_agents(ctx: Context, agent_ids: list[str]) -> TextContent:
        """Two or three agents side by side: price, rating, p50 duration, failure rate, completed
        jobs in the last 30 days, availability and input fields."""
        async with run.call(ctx, READ) as (session, _):
            compared = await agents.compare(session, agents.parse_compared(agent_ids))
        return as_text([ComparedAgentOut.model_validate(a) for a in compared])

    @tool
    async def rate_job(
        ctx: Context, job_id: str, stars: int, review: str | None = None
    ) -> dict[str, Any]:
        """Rate the agent that ran one of your jobs, once the job has ended (COMPLETED or
        FAILED): stars 1 to 5 and an optional review. Once per job; change it within 7 days
        with update_rating."""
        fields = _validated(RatingCreate, jobId=job_id, stars=stars, review=review)
        async with run.call(ctx, JOBS_WRITE, write=True) as (session, principal):
            rating = await ratings.rate(
                session, principal, fields.jobId, fields.stars, fields.review
            )
            return dump(RatingOut.model_validate(rating))  # type: ignore[no-any-return]

    @tool
    async def update_rating(
        ctx: Context, rating_id: str, stars: int | None = None, review: str | None = None
    ) -> dict[str, Any]:
        """Change your rating's stars and/or review (within 7 days of rating)."""
        fields = _validated(RatingUpdate, stars=stars, review=review)
        async with run.call(ctx, JOBS_WRITE, write=True) as (session, principal):
            rating = await ratings.edit(
                session,
                principal,
                rating_id,
                stars=fields.stars,
                review=fields.review,
                review_given=review is not None,
            )
            return dump(RatingOut.model_validate(rating))  # type: ignore[no-any-return]

    @tool
    async def favourite_agent(
        ctx: Context, agent_id: str, favourite: bool = True
    ) -> dict[str, Any]:
        """Mark an agent as a favourite (favourite=false: no longer). search_agents with
        favourites=true lists them."""
        async with run.call(ctx, JOBS_WRITE, write=True) as (session, principal):
            await ratings.set_favourite(session, principal, agent_id, favourite)
        return {"agentId": agent_id, "favourite": favourite}

    # ---- credits --------------------------------------------------------------------------

    @tool
    async def get_purchase_link(ctx: Context, pack_id: str | None = None) -> dict[str, Any]:
        """A link where a person buys credits for the current workspace (with a card, through
        Stripe). Without pack_id: the "Buy credits" page and the packs on sale. With pack_id:
        a purchase of that pack is started and its own payment page is returned (`payUrl`).
        The credits arrive once Stripe confirms the payment."""
        base = settings.public_url.rstrip("/")
        async with run.call(ctx, JOBS_WRITE) as (session, principal):
            billing.require_buyer(principal)
            packs = [PackOut.model_validate(p) for p in await billing.list_packs(session)]
            if pack_id is None:
                return {"url": f"{base}/credits/buy", "packs": [dump(p) for p in packs]}
            parsed = parse_uuid(pack_id)
            if parsed is None:
                raise tool_error(BadRequest.field("pack_id", "not a credit pack id"))
            plan = await billing.plan_purchase(session, principal, parsed)
        customer = plan.customer_id or await stripe_api.create_customer(
            settings, workspace_id=plan.workspace_id, name=plan.customer_name, email=plan.email
        )  # no transaction open while Stripe is called
        intent = await stripe_api.create_intent(
            settings, purchase_id=plan.purchase_id, workspace_id=plan.workspace_id,
            amount=plan.price, currency=plan.currency, customer=customer,
        )  # fmt: skip
        async with run.call(ctx, JOBS_WRITE, write=True) as (session, principal):
            row = await billing.record_purchase(session, plan, customer, intent)
            out = dump(PurchaseOut.model_validate(row))
        return {"url": f"{base}/credits/buy/{row.id}", "purchase": out}

    # ---- jobs -----------------------------------------------------------------------------

    @tool
    async def create_job(
        ctx: Context,
        agent_id: str,
        max_accepted_credits: float | None = None,
        input_data: dict[str, Any] | None = None,
        name: str | None = None,
        task_id: str | None = None,
        idempotency_key: str | None = None,
        webhook: str | None = None,
        webhook_events_filter: list[str] | None = None,
    ) -> dict[str, Any]:
        """Hire an agent: input_data is validated against its input schema, the price is held
        on the workspace's credits, and the job is dispatched at once. Returns the job.
        webhook: a URL told about the job's status changes (Standard Webhooks signature),
        webhook_events_filter: only these (e.g. ["completed", "failed"])."""
        body = _validated(
            JobCreate,
            inputData=input_data,
            name=name,
            maxAcceptedCredits=max_accepted_credits,
            taskId=task_id,
            webhook=webhook,
            webhookEventsFilter=webhook_events_filter,
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
            return dump(JobOut.model_validate(created.job))  # type: ignore[no-any-return]

    @tool
    async def get_job(ctx: Context, job_id: str) -> dict[str, Any]:
        """One of your jobs: status, result, price and refund, agent status."""
        async with run.call(ctx, READ) as (session, principal):
            job = await jobs.get_job(session, principal, job_id, settings=settings)
            return dump(JobOut.model_validate(job))  # type: ignore[no-any-return]

    @tool
    async def list_jobs(
        ctx: Context,
        agent_id: str | None = None,
        status: str | None = None,
        scope: str = "owned",
        limit: int = 20,
        cursor: str | None = None,
    ) -> TextContent:
        """Jobs in the current workspace, newest first: yours (scope owned) or every member's
        (scope workspace). status: comma-separated, either case. Page with `cursor` = the id
        of the last job you got."""
        async with run.call(ctx, READ) as (session, principal):
            page = await jobs.list_jobs(
                session,
                principal,
                settings=settings,
                agent_id=agent_id,
                status=status,
                cursor=cursor,
                limit=limit,
                scope=scope,
            )
            listed = [JobOut.model_validate(j) for j in page.jobs]
        return as_text(listed)

    @tool
    async def wait_for_job(
        ctx: Context, job_id: str, timeout_seconds: float = 30
    ) -> dict[str, Any]:
        """Wait (at most timeout_seconds, capped at 60) until the job is finished or needs
        input (INPUT_REQUIRED); returns the job as it then stands."""
        deadline = time.monotonic() + max(0.0, min(timeout_seconds, MAX_WAIT_SECONDS))
        async with run.call(ctx, READ) as (session, principal):
            job = JobOut.model_validate(
                await jobs.get_job(session, principal, job_id, settings=settings)
            )
        waiter = str(principal.key_id)
        if _WAITS.get(waiter, 0) >= MAX_WAITS_PER_KEY or sum(_WAITS.values()) >= MAX_WAITS:
            raise ToolError(
                f"429 Too Many Requests: at most {MAX_WAITS_PER_KEY} wait_for_job calls at once "
                "per key; retry later"
            )
        _WAITS[waiter] = _WAITS.get(waiter, 0) + 1
        try:
            poll = WAIT_POLL_SECONDS
            while True:
                settled = (
                    job.status in lifecycle.FINAL_STATUSES or job.status == JobStatus.INPUT_REQUIRED
                )
                if settled or time.monotonic() >= deadline:
                    return dump(job)  # type: ignore[no-any-return]
                await asyncio.sleep(min(poll, max(0.0, deadline - time.monotonic())))
                poll = min(poll * 1.5, MAX_WAIT_POLL_SECONDS)  # long waits poll less often
                async with run.call(ctx, READ) as (session, principal):
                    job = JobOut.model_validate(
                        await jobs.get_job(session, principal, job_id, settings=settings)
                    )
        finally:
            _WAITS[waiter] -= 1
            if _WAITS[waiter] <= 0:
                del _WAITS[waiter]

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
            return dump(JobOut.model_validate(out))  # type: ignore[no-any-return]

    @tool
    async def cancel_job(ctx: Context, job_id: str) -> dict[str, Any]:
        """Cancel an unfinished job; its held credits are refunded."""
        async with run.call(ctx, JOBS_WRITE, write=True) as (session, principal):
            job = await jobs.cancel_job(session, principal, job_id, settings=settings)
            return dump(JobOut.model_validate(job))  # type: ignore[no-any-return]

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
            "projects": [dump(ProjectOut.model_validate(p)) for p in found.items],
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
            return dump(ProjectOut.model_validate(project))  # type: ignore[no-any-return]

    @tool
    async def get_project(ctx: Context, project_id: str) -> dict[str, Any]:
        """One project of the current workspace."""
        async with run.call(ctx, READ) as (session, principal):
            project = await projects.get_project(session, principal.workspace_id, project_id)
            return dump(ProjectOut.model_validate(project))  # type: ignore[no-any-return]

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
            return dump(ProjectOut.model_validate(project))  # type: ignore[no-any-return]

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
            return dump(UserOut.model_validate(await users.get_user(session, principal.user_id)))  # type: ignore[no-any-return]

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
            return dump(UserOut.model_validate(user))  # type: ignore[no-any-return]

    @tool
    async def list_notifications(
        ctx: Context,
        unread: bool = False,
        kind: str | None = None,
        cursor: str | None = None,
        limit: int = 20,
    ) -> dict[str, Any]:
        """Your notifications, newest first: items, nextCursor (pass it back as cursor for
        older ones) and unreadCount. kind: comma-separated kinds (e.g. job.input_required)."""
        async with run.call(ctx, READ) as (session, principal):
            page = await notifications.list_notifications(
                session,
                principal,
                secret=settings.resolved_secret_key(),
                unread=unread,
                kind=kind,
                cursor=cursor,
                limit=limit,
            )
            return dump(page.page())  # type: ignore[no-any-return]

    @tool
    async def mark_notifications(
        ctx: Context,
        notification_id: str | None = None,
        subject_ref: str | None = None,
        all_read: bool = False,
        unread: bool = False,
    ) -> dict[str, Any]:
        """Mark notifications read: one (notification_id; unread=true marks it unread again),
        all about one thing (subject_ref, e.g. "job:<id>"), or all (all_read=true)."""
        given = [notification_id is not None, subject_ref is not None, all_read]
        if sum(given) != 1:
            raise tool_error(
                BadRequest.field(
                    "notification_id", "give exactly one of notification_id, subject_ref, all_read"
                )
            )
        async with run.call(ctx, PROFILE_WRITE, write=True) as (session, principal):
            if notification_id is not None:
                return dump(  # type: ignore[no-any-return]
                    await notifications.mark(session, principal, notification_id, read=not unread)
                )
            if subject_ref is not None:
                return dump(  # type: ignore[no-any-return]
                    await notifications.read_by_reference(session, principal, subject_ref)
                )
            return dump(await notifications.mark_all_read(session, principal))  # type: ignore[no-any-return]

    @tool
    async def get_credits(ctx: Context) -> dict[str, Any]:
        """The workspace's credit balance, held credits and recent ledger entries."""
        async with run.call(ctx, READ) as (session, principal):
            return dump(CreditsOut.model_validate(await credits.account(session, principal)))  # type: ignore[no-any-return]

    register_public_tools(server, run, tool)
    register_schedule_tools(run, tool, _validated)


def register_public_tools(
    server: MCPServer, run: ToolRunner, tool: Callable[[ToolFn], ToolFn]
) -> None:
    """The tool names and arguments of the public Sokosumi MCP server (reference/clients.md),
    each over the same service as its REST route; results are the API's ``data``."""
    settings = run.settings

    def coworker_dump(row: Any) -> dict[str, Any]:
        return dump(CoworkerOut.model_validate(row))  # type: ignore[no-any-return]

    @tool
    async def list_agent_jobs(ctx: Context, agent_id: str) -> TextContent:
        """Your jobs for one agent, newest first."""
        async with run.call(ctx, READ) as (session, principal):
            page = await jobs.list_agent_jobs(session, principal, agent_id, settings=settings)
            listed = [JobOut.model_validate(j) for j in page.jobs]
        return as_text(listed)

    @tool
    async def list_job_events(ctx: Context, job_id: str) -> TextContent:
        """Every state change of a job, oldest first."""
        async with run.call(ctx, READ) as (session, principal):
            events = await jobs.job_events(session, principal, job_id)
            return as_text([JobEventOut.model_validate(e) for e in events])

    @tool
    async def list_job_files(ctx: Context, job_id: str) -> TextContent:
        """Files of a job's input and result: name, MIME type, and whether Agora stored it
        (status STORED, TOO_LARGE, REFUSED, UNREACHABLE; AVAILABLE until collected)."""
        async with run.call(ctx, READ) as (session, principal):
            files = await jobs.job_files(session, principal, job_id, settings=settings)
        return as_text([JobFileOut.model_validate(f) for f in files])

    @tool
    async def list_job_links(ctx: Context, job_id: str) -> TextContent:
        """Links in a completed job's result."""
        async with run.call(ctx, READ) as (session, principal):
            links = await jobs.job_links(session, principal, job_id)
        return as_text([JobLinkOut.model_validate(link) for link in links])

    @tool
    async def get_job_input_request(ctx: Context, job_id: str) -> dict[str, Any]:
        """What the agent asks for when the job is INPUT_REQUIRED: `eventId` (pass it to
        provide_job_input) and the input schema of the answer."""
        async with run.call(ctx, READ) as (session, principal):
            return dump(await jobs.input_request(session, principal, job_id))  # type: ignore[no-any-return]

    @tool
    async def provide_job_input(
        ctx: Context, job_id: str, event_id: str, input_data: dict[str, Any]
    ) -> dict[str, Any]:
        """Answer the agent's input request named by `event_id` (from get_job_input_request);
        the job goes back to RUNNING."""
        body = _validated(JobInputs, inputData=input_data, eventId=event_id)
        async with run.call(ctx, JOBS_WRITE, write=True) as (session, principal):
            out = await jobs.provide_inputs(session, principal, job_id, body, settings=settings)
            return dump(JobOut.model_validate(out))  # type: ignore[no-any-return]

    @tool
    async def get_user_profile(ctx: Context) -> dict[str, Any]:
        """Your profile (name, email, preferences)."""
        async with run.call(ctx, READ) as (session, principal):
            return dump(UserOut.model_validate(await users.get_user(session, principal.user_id)))  # type: ignore[no-any-return]

    @tool
    async def list_coworkers(
        ctx: Context,
        scope: str = "whitelisted",
        capability: str | list[str] | None = None,
        search: str | None = None,
        limit: int | None = None,
    ) -> TextContent:
        """AI coworkers that take tasks. scope: whitelisted (default), all (also yours),
        archived. capability: chat and/or tasks. search: name contains."""
        if scope not in ("whitelisted", "all", "archived"):
            raise ToolError(
                "400 Invalid request parameters: scope must be whitelisted, all or archived"
            )
        wanted = [capability] if isinstance(capability, str) else list(capability or [])
        wanted = [c.strip().lower() for w in wanted for c in w.split(",") if c.strip()]
        if any(c not in CAPABILITIES for c in wanted):
            raise ToolError("400 Invalid request parameters: capability must be chat or tasks")
        async with run.call(ctx, READ) as (session, principal):
            rows, _ = await coworkers.listing(
                session, principal, scope=scope, capabilities=wanted, search=search, limit=limit
            )
            return as_text([coworker_dump(r) for r in rows])

    @tool
    async def get_coworker(ctx: Context, coworker: str) -> dict[str, Any]:
        """One coworker by id, slug or name."""
        async with run.call(ctx, READ) as (session, principal):
            return coworker_dump(await coworkers.find(session, principal, coworker))

    @tool
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
        async with run.call(ctx, PROJECTS_WRITE, write=True) as (session, principal):
            found = await coworkers.find(session, principal, coworker)
            body = _validated(
                TaskCreate,
                name=title or f"Task for {found.name}",
                description=description,
                status=status,
                coworkerId=str(found.id),
            )
            task = await tasks.create_task(session, principal, body)
            snapshot = await tasks.render_one(session, task, settings)
            return dump(TaskOut.model_validate(snapshot))  # type: ignore[no-any-return]

    @tool
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
        async with run.call(ctx, READ) as (session, principal):
            if coworker is not None:
                found = await coworkers.find(session, principal, coworker)
                if coworker_id is not None and coworker_id != str(found.id):
                    raise ToolError(
                        "400 Invalid request parameters: coworker and coworker_id differ"
                    )
                coworker_id = str(found.id)
            filters = tasks.parse_filters(
                status,
                None,
                "false",
                q=q,
                scope=scope,
                coworker_id=coworker_id,
                assignee_id=assignee,
            )
            paging = tasks.paging_from_cursor(
                settings, principal, filters, cursor, PageParams(1, limit)
            )
            page = await tasks.list_tasks(session, principal, filters, paging, settings)
            return as_text([TaskOut.model_validate(t) for t in page.items])

    @tool
    async def get_task(ctx: Context, task_id: str) -> dict[str, Any]:
        """One task: status, coworker, jobs, events, credits."""
        async with run.call(ctx, READ) as (session, principal):
            task = await tasks.get_task(session, principal, task_id)
            snapshot = await tasks.render_one(session, task, settings)
            return dump(TaskOut.model_validate(snapshot))  # type: ignore[no-any-return]

    @tool
    async def list_task_events(ctx: Context, task_id: str) -> TextContent:
        """A task's timeline: comments and status moves, each with its actor."""
        async with run.call(ctx, READ) as (session, principal):
            events = await tasks.list_events(session, principal, task_id)
            return as_text([TaskEventOut.model_validate(e) for e in events])

    @tool
    async def assign_task(
        ctx: Context, task_id: str, assignee_id: str | None = None
    ) -> dict[str, Any]:
        """Assign or reassign a task to a member of the workspace (user id) or a coworker (id);
        without assignee_id, unassign it. The change is a task event (kind assignment)."""
        async with run.call(ctx, READ, write=True) as (session, principal):
            task = await tasks.assign(session, principal, task_id, assignee_id)
            snapshot = await tasks.render_one(session, task, settings)
            return dump(TaskOut.model_validate(snapshot))  # type: ignore[no-any-return]

    @tool
    async def add_task_participant(ctx: Context, task_id: str, user_id: str) -> dict[str, Any]:
        """A member of the workspace takes part in the task (beside its assignee)."""
        async with run.call(ctx, READ, write=True) as (session, principal):
            task = await tasks.add_participant(session, principal, task_id, user_id)
            snapshot = await tasks.render_one(session, task, settings)
            return dump(TaskOut.model_validate(snapshot))  # type: ignore[no-any-return]

    @tool
    async def remove_task_participant(ctx: Context, task_id: str, user_id: str) -> dict[str, Any]:
        """The person no longer takes part in the task."""
        async with run.call(ctx, READ, write=True) as (session, principal):
            task = await tasks.remove_participant(session, principal, task_id, user_id)
            snapshot = await tasks.render_one(session, task, settings)
            return dump(TaskOut.model_validate(snapshot))  # type: ignore[no-any-return]

    @tool
    async def list_task_jobs(ctx: Context, task_id: str) -> TextContent:
        """The jobs hired inside a task."""
        async with run.call(ctx, READ) as (session, principal):
            task_jobs = await tasks.list_jobs(session, principal, task_id, settings)
            return as_text([JobOut.model_validate(j) for j in task_jobs])

    @tool
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
        body = _validated(
            TaskEventCreate,
            comment=comment,
            status=status,
            credits=credits,
            authenticationUrl=authentication_url,
        )
        async with run.call(ctx, READ, write=True) as (session, principal):
            event = await tasks.add_event(session, principal, task_id, body)
            return dump(TaskEventOut.model_validate(event))  # type: ignore[no-any-return]

    @tool
    async def add_job_to_task(
        ctx: Context,
        task_id: str,
        agent_id: str,
        max_accepted_credits: float,
        input_data: dict[str, Any] | None = None,
        name: str | None = None,
    ) -> dict[str, Any]:
        """Hire an agent inside a task (its credits count on the task)."""
        body = _validated(
            TaskJobCreate,
            agentId=agent_id,
            maxAcceptedCredits=max_accepted_credits,
            inputData=input_data,
            name=name,
        )
        async with run.call(ctx, JOBS_WRITE, write=True) as (session, principal):
            job = await tasks.create_job(session, principal, task_id, body, settings)
            return dump(JobOut.model_validate(job))  # type: ignore[no-any-return]

    @tool
    async def search(ctx: Context, query: str) -> TextContent:
        """Agents whose name, description or tags contain every word of `query`."""
        words = [w for w in query.lower().split() if w][:10]
        found: list[AgentOut] = []
        cursor: str | None = None
        async with run.call(ctx, READ) as (session, _):
            for _ in range(SEARCH_PAGES):
                page = await agents.cursor_listing(session, cursor=cursor, limit=100, categories=[])
                for agent in map(AgentOut.model_validate, page.agents):
                    text = " ".join(
                        [agent.name, agent.description] + [t.name for t in agent.tags]
                    ).lower()
                    if all(w in text for w in words):
                        found.append(agent)
                if not page.has_more or page.next_cursor is None or len(found) >= 20:
                    break
                cursor = page.next_cursor
        return as_text(found[:20])

    @tool
    async def fetch(ctx: Context, id: str) -> dict[str, Any]:
        """One agent by id, with its input schema (`inputSchema`)."""
        async with run.call(ctx, READ) as (session, _):
            listed = await agents.get_listed(session, id)
            out: dict[str, Any] = dump(AgentOut.model_validate(listed))
        out["inputSchema"] = listed.input_schema
        return out
