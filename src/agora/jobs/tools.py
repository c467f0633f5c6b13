"""MCP tools of jobs: hire, follow, answer and cancel (docs/mcp.md)."""

from __future__ import annotations

import asyncio
import time
from typing import Any
from urllib.parse import urlencode

from mcp.server.mcpserver import Context
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import TextContent

from agora.agents import saved_inputs
from agora.auth.principal import Permission
from agora.jobs import lifecycle, results, service, toolbox
from agora.jobs.schemas import JobCreate, JobEventOut, JobFileOut, JobInputs, JobLinkOut, JobOut
from agora.kit import csvexport
from agora.kit.errors import BadRequest
from agora.kit.units import Mode
from agora.mcp.runner import Tool, ToolCall, as_text, dump, tool_call, validated
from agora.mcp.toolbox import PersonalTool
from agora.models.statuses import JobStatus

MAX_WAIT_SECONDS = 60.0
WAIT_POLL_SECONDS = 0.2
MAX_WAIT_POLL_SECONDS = 1.0
# Long-polling is bounded: concurrent wait_for_job calls per key and per process.
MAX_WAITS_PER_KEY = 2
MAX_WAITS = 32
_WAITS: dict[str, int] = {}
READ, JOBS_WRITE = Permission.READ, Permission.JOBS_WRITE


async def create_job(
    ctx: Context,
    agent_id: str | None = None,
    max_accepted_credits: float | None = None,
    input_data: dict[str, Any] | None = None,
    name: str | None = None,
    task_id: str | None = None,
    idempotency_key: str | None = None,
    webhook: str | None = None,
    webhook_events_filter: list[str] | None = None,
    saved_input_id: str | None = None,
) -> dict[str, Any]:
    """Hire an agent: input_data is validated against its input schema, the price is held
    on the workspace's credits, and the job is dispatched at once. Returns the job (agentVersion:
    the agent's version that runs it).
    webhook: a URL told about the job's status changes (Standard Webhooks signature),
    webhook_events_filter: only these (e.g. ["completed", "failed"]).
    saved_input_id: one of your saved inputs (list_saved_inputs) instead of agent_id and
    input_data: its agent and input, at its pinned version or the latest compatible one."""
    body = validated(
        JobCreate,
        inputData=input_data,
        name=name,
        maxAcceptedCredits=max_accepted_credits,
        taskId=task_id,
        webhook=webhook,
        webhookEventsFilter=webhook_events_filter,
    )
    async with tool_call(ctx, JOBS_WRITE, Mode.WRITE) as call:
        version = None
        if saved_input_id is not None:
            if input_data is not None:
                raise BadRequest.field("input_data", "give either saved_input_id or input_data")
            saved = await saved_inputs.chosen(call.session, call.principal, saved_input_id)
            if agent_id is not None and agent_id != str(saved.agent_id):
                raise BadRequest.field("agent_id", "is not the saved input's agent")
            agent_id, version = str(saved.agent_id), saved.version
            body = body.model_copy(update={"inputData": saved.input_data})
        if agent_id is None:
            raise BadRequest.field("agent_id", "is required (or give saved_input_id)")
        created = await service.create_job(
            call.session,
            call.principal,
            agent_id,
            body,
            settings=call.settings,
            idempotency_key=idempotency_key,
            version=version,
        )
        return dump(JobOut.model_validate(created.job))


async def get_job(ctx: Context, job_id: str) -> dict[str, Any]:
    """One of your jobs: status, result, price and refund, agent status."""
    async with tool_call(ctx, READ) as call:
        job = await service.get_job(call.session, call.principal, job_id, settings=call.settings)
        return dump(JobOut.model_validate(job))


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
    async with tool_call(ctx, READ) as call:
        page = await service.list_jobs(
            call.session,
            call.principal,
            settings=call.settings,
            agent_id=agent_id,
            status=status,
            cursor=cursor,
            limit=limit,
            scope=scope,
        )
        listed = [JobOut.model_validate(j) for j in page.jobs]
    return as_text(listed)


async def wait_for_job(ctx: Context, job_id: str, timeout_seconds: float = 30) -> dict[str, Any]:
    """Wait (at most timeout_seconds, capped at 60) until the job is finished or needs
    input (INPUT_REQUIRED); returns the job as it then stands."""
    deadline = time.monotonic() + max(0.0, min(timeout_seconds, MAX_WAIT_SECONDS))
    async with tool_call(ctx, READ) as call:
        job = JobOut.model_validate(
            await service.get_job(call.session, call.principal, job_id, settings=call.settings)
        )
    waiter = str(call.principal.key_id)
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
                return dump(job)
            await asyncio.sleep(min(poll, max(0.0, deadline - time.monotonic())))
            poll = min(poll * 1.5, MAX_WAIT_POLL_SECONDS)  # long waits poll less often
            async with tool_call(ctx, READ) as call:
                job = JobOut.model_validate(
                    await service.get_job(
                        call.session, call.principal, job_id, settings=call.settings
                    )
                )
    finally:
        _WAITS[waiter] -= 1
        if _WAITS[waiter] <= 0:
            del _WAITS[waiter]


async def get_input_request(ctx: Context, job_id: str) -> dict[str, Any]:
    """What the agent asks for when the job is INPUT_REQUIRED (statusId and input schema)."""
    async with tool_call(ctx, READ) as call:
        return dump(await service.input_request(call.session, call.principal, job_id))


async def answer_input_request(
    ctx: Context, job_id: str, input_data: dict[str, Any], status_id: str | None = None
) -> dict[str, Any]:
    """Answer the agent's input request; the job goes back to RUNNING."""
    body = validated(JobInputs, inputData=input_data, statusId=status_id)
    async with tool_call(ctx, JOBS_WRITE, Mode.WRITE) as call:
        out = await service.provide_inputs(
            call.session, call.principal, job_id, body, settings=call.settings
        )
        return dump(JobOut.model_validate(out))


async def cancel_job(ctx: Context, job_id: str) -> dict[str, Any]:
    """Cancel an unfinished job; its held credits are refunded."""
    async with tool_call(ctx, JOBS_WRITE, Mode.WRITE) as call:
        job = await service.cancel_job(call.session, call.principal, job_id, settings=call.settings)
        return dump(JobOut.model_validate(job))


async def list_agent_jobs(ctx: Context, agent_id: str) -> TextContent:
    """Your jobs for one agent, newest first."""
    async with tool_call(ctx, READ) as call:
        page = await service.list_agent_jobs(
            call.session, call.principal, agent_id, settings=call.settings
        )
        listed = [JobOut.model_validate(j) for j in page.jobs]
    return as_text(listed)


async def list_job_events(ctx: Context, job_id: str) -> TextContent:
    """Every state change of a job, oldest first."""
    async with tool_call(ctx, READ) as call:
        events = await service.job_events(call.session, call.principal, job_id)
        return as_text([JobEventOut.model_validate(e) for e in events])


async def list_job_files(ctx: Context, job_id: str) -> TextContent:
    """Files of a job's input and result: name, MIME type, and whether Agora stored it
    (status STORED, TOO_LARGE, REFUSED, UNREACHABLE; AVAILABLE until collected)."""
    async with tool_call(ctx, READ) as call:
        files = await service.job_files(
            call.session, call.principal, job_id, settings=call.settings
        )
    return as_text([JobFileOut.model_validate(f) for f in files])


async def list_job_links(ctx: Context, job_id: str) -> TextContent:
    """Links in a completed job's result."""
    async with tool_call(ctx, READ) as call:
        links = await service.job_links(call.session, call.principal, job_id)
    return as_text([JobLinkOut.model_validate(link) for link in links])


async def get_job_input_request(ctx: Context, job_id: str) -> dict[str, Any]:
    """What the agent asks for when the job is INPUT_REQUIRED: `eventId` (pass it to
    provide_job_input) and the input schema of the answer."""
    async with tool_call(ctx, READ) as call:
        return dump(await service.input_request(call.session, call.principal, job_id))


async def provide_job_input(
    ctx: Context, job_id: str, event_id: str, input_data: dict[str, Any]
) -> dict[str, Any]:
    """Answer the agent's input request named by `event_id` (from get_job_input_request);
    the job goes back to RUNNING."""
    body = validated(JobInputs, inputData=input_data, eventId=event_id)
    async with tool_call(ctx, JOBS_WRITE, Mode.WRITE) as call:
        out = await service.provide_inputs(
            call.session, call.principal, job_id, body, settings=call.settings
        )
        return dump(JobOut.model_validate(out))


# ---- the caller's toolbox: hire_<slug> tools (mcp/toolbox.py lists and calls them) ------


async def toolbox_tools(call: ToolCall) -> list[PersonalTool]:
    """The caller's own tools: one per agent of their toolbox (jobs/toolbox.py)."""
    tools = await toolbox.hire_tools(call.session, call.principal)
    return [PersonalTool(t.name, t.description, t.input_schema) for t in tools]


async def hire_with_tool(call: ToolCall, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    """A hire_<slug> tool called: the job created (as create_job answers it)."""
    created = await toolbox.hire(
        call.session, call.principal, name, arguments, settings=call.settings
    )
    return dump(JobOut.model_validate(created.job))


# An export answered in a tool result is cut at this many rows (docs/mcp.md, "Exports").
EXPORT_ROWS = 1000


async def export_jobs(
    ctx: Context, agent_id: str | None = None, status: str | None = None, scope: str = "owned"
) -> dict[str, Any]:
    """Your jobs (scope workspace: every member's) as CSV, newest first: up to 1000 rows in
    `csv`; `truncated` says more were left out, and `download` is the REST export of them all
    (GET, with the same key). Cells a spreadsheet would run as a formula start with '."""
    async with tool_call(ctx, READ) as call:
        export = service.jobs_export(call.principal, agent_id=agent_id, status=status, scope=scope)
        text, rows, more = await csvexport.first_rows(call.session, export, EXPORT_ROWS)
        query = urlencode(
            {k: v for k, v in (("agentId", agent_id), ("status", status), ("scope", scope)) if v}
        )
        link = f"{call.settings.public_url}/v1/jobs/export?{query}"
    return {"csv": text, "rows": rows, "truncated": more, "download": link}


async def get_job_result(ctx: Context, job_id: str, format: str = "markdown") -> TextContent:
    """One of your job's result: markdown (as the agent gave it), json (a JSON result as JSON)
    or csv (a JSON result as CSV; refused when the result is not JSON)."""
    async with tool_call(ctx, READ) as call:
        found = await results.result_file(call.session, call.principal, job_id, format)
    return TextContent(type="text", text=found.body)


TOOLS: list[Tool] = [
    create_job,
    get_job,
    list_jobs,
    wait_for_job,
    get_input_request,
    answer_input_request,
    cancel_job,
    list_agent_jobs,
    list_job_events,
    list_job_files,
    list_job_links,
    get_job_input_request,
    provide_job_input,
    export_jobs,
    get_job_result,
]
