"""MCP tools of schedules (docs/schedules.md)."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from mcp.server.mcpserver import Context

from agora.auth.principal import Permission
from agora.kit.timeutil import utcnow
from agora.kit.units import Mode
from agora.mcp.runner import Tool, dump, tool_call, validated
from agora.schedules import rules, service
from agora.schedules.schemas import (
    ScheduleCreate,
    ScheduleOut,
    ScheduleRule,
    ScheduleRunOut,
    ScheduleUpdate,
)

READ, JOBS_WRITE = Permission.READ, Permission.JOBS_WRITE


def out(schedule: Any) -> dict[str, Any]:
    return dump(ScheduleOut.model_validate(schedule))


async def preview_schedule(
    ctx: Context,
    cron: str | None = None,
    interval_seconds: int | None = None,
    timezone: str = "UTC",
    starts_at: datetime | None = None,
    ends_at: datetime | None = None,
) -> dict[str, Any]:
    """The next five occurrences of a rule (a five-field cron expression in an IANA time
    zone, or an interval of at least 60 seconds), before creating the schedule."""
    body = validated(
        ScheduleRule,
        cron=cron,
        intervalSeconds=interval_seconds,
        timezone=timezone,
        startsAt=starts_at,
        endsAt=ends_at,
    )
    async with tool_call(ctx, READ):
        return dump(rules.preview(body, utcnow()))


async def create_schedule(
    ctx: Context,
    agent_id: str,
    cron: str | None = None,
    interval_seconds: int | None = None,
    timezone: str = "UTC",
    input_data: dict[str, Any] | None = None,
    name: str | None = None,
    task_name: str | None = None,
    starts_at: datetime | None = None,
    ends_at: datetime | None = None,
    max_accepted_credits: float | None = None,
    monthly_budget: float | None = None,
    missed_policy: Literal["run_once", "skip"] = "run_once",
) -> dict[str, Any]:
    """Run an agent on a schedule: every occurrence creates a job as you (credits held like
    any job). task_name: each run also creates a task of that name holding its job.
    monthly_budget caps the credits the runs hold per month; a run past it is skipped."""
    body = validated(
        ScheduleCreate,
        agentId=agent_id,
        cron=cron,
        intervalSeconds=interval_seconds,
        timezone=timezone,
        inputData=input_data,
        name=name,
        task={"name": task_name} if task_name else None,
        startsAt=starts_at,
        endsAt=ends_at,
        maxAcceptedCredits=max_accepted_credits,
        monthlyBudget=monthly_budget,
        missedPolicy=missed_policy,
    )
    async with tool_call(ctx, JOBS_WRITE, Mode.WRITE) as call:
        return out(await service.create_schedule(call.session, call.principal, body, now=utcnow()))


async def list_schedules(ctx: Context, cursor: str | None = None) -> dict[str, Any]:
    """Your schedules in this workspace, newest first (`nextCursor` pages on)."""
    async with tool_call(ctx, READ) as call:
        rows, next_cursor = await service.list_schedules(
            call.session, call.principal, cursor=cursor, limit=50
        )
        return {"schedules": [out(r) for r in rows], "nextCursor": next_cursor}


async def get_schedule(ctx: Context, schedule_id: str) -> dict[str, Any]:
    """One schedule, with its next five occurrences and its latest runs."""
    async with tool_call(ctx, READ) as call:
        schedule, found = await service.occurrences(
            call.session, call.principal, schedule_id, now=utcnow()
        )
        rows, _ = await service.list_runs(
            call.session, call.principal, schedule_id, cursor=None, limit=20
        )
        return {
            **out(schedule),
            "occurrences": found.local,
            "runs": [dump(ScheduleRunOut.model_validate(r)) for r in rows],
        }


async def update_schedule(
    ctx: Context,
    schedule_id: str,
    action: Literal["pause", "resume", "end"] | None = None,
    name: str | None = None,
    cron: str | None = None,
    interval_seconds: int | None = None,
    timezone: str | None = None,
    input_data: dict[str, Any] | None = None,
    monthly_budget: float | None = None,
) -> dict[str, Any]:
    """Pause, resume or end a schedule (action), or change its fields (a changed rule
    starts over from now)."""
    fields = {
        "name": name,
        "cron": cron,
        "intervalSeconds": interval_seconds,
        "timezone": timezone,
        "inputData": input_data,
        "monthlyBudget": monthly_budget,
    }
    changes = {k: v for k, v in fields.items() if v is not None}
    body = validated(ScheduleUpdate, **changes) if changes else None
    now = utcnow()
    async with tool_call(ctx, JOBS_WRITE, Mode.WRITE) as call:
        schedule = None
        if body is not None:
            schedule = await service.update_schedule(
                call.session, call.principal, schedule_id, body, now=now
            )
        if action == "pause":
            schedule = await service.pause(call.session, call.principal, schedule_id, now=now)
        elif action == "resume":
            schedule = await service.resume(call.session, call.principal, schedule_id, now=now)
        elif action == "end":
            schedule = await service.end(call.session, call.principal, schedule_id, now=now)
        if schedule is None:
            schedule = await service.get_schedule(call.session, call.principal, schedule_id)
        return out(schedule)


TOOLS: list[Tool] = [
    preview_schedule,
    create_schedule,
    list_schedules,
    get_schedule,
    update_schedule,
]
