"""MCP tools for schedules (docs/schedules.md): wrappers of ``schedules.service``, as the REST
routes are. Registered by ``tools.register_tools``."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Any, Literal

from mcp.server.mcpserver import Context

from agora.auth.principal import Permission
from agora.kit.timeutil import utcnow
from agora.mcp.runner import ToolRunner, dump
from agora.schedules import service as schedules
from agora.schedules.schemas import (
    OccurrencesOut,
    ScheduleCreate,
    ScheduleOut,
    ScheduleRule,
    ScheduleRunOut,
    ScheduleUpdate,
)

ToolFn = Callable[..., Awaitable[Any]]
READ, JOBS_WRITE = Permission.READ, Permission.JOBS_WRITE


def register_schedule_tools(
    run: ToolRunner,
    tool: Callable[[ToolFn], ToolFn],
    validated: Callable[..., Any],
) -> None:
    def out(schedule: Any) -> dict[str, Any]:
        return dump(ScheduleOut.model_validate(schedule))  # type: ignore[no-any-return]

    @tool
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
        async with run.call(ctx, READ):
            rule, found = schedules.preview(body, utcnow())
        local = schedules.local_times(found, rule.timezone)
        return dump(OccurrencesOut(occurrences=found, timezone=rule.timezone, local=local))  # type: ignore[no-any-return]

    @tool
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
        async with run.call(ctx, JOBS_WRITE, write=True) as (session, principal):
            return out(await schedules.create_schedule(session, principal, body, now=utcnow()))

    @tool
    async def list_schedules(ctx: Context, cursor: str | None = None) -> dict[str, Any]:
        """Your schedules in this workspace, newest first (`nextCursor` pages on)."""
        async with run.call(ctx, READ) as (session, principal):
            rows, next_cursor = await schedules.list_schedules(
                session, principal, cursor=cursor, limit=50
            )
            return {"schedules": [out(r) for r in rows], "nextCursor": next_cursor}

    @tool
    async def get_schedule(ctx: Context, schedule_id: str) -> dict[str, Any]:
        """One schedule, with its next five occurrences and its latest runs."""
        async with run.call(ctx, READ) as (session, principal):
            schedule, found = await schedules.occurrences(
                session, principal, schedule_id, now=utcnow()
            )
            rows, _ = await schedules.list_runs(
                session, principal, schedule_id, cursor=None, limit=20
            )
            return {
                **out(schedule),
                "occurrences": schedules.local_times(found, schedule.timezone),
                "runs": [dump(ScheduleRunOut.model_validate(r)) for r in rows],
            }

    @tool
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
        async with run.call(ctx, JOBS_WRITE, write=True) as (session, principal):
            schedule = None
            if body is not None:
                schedule = await schedules.update_schedule(
                    session, principal, schedule_id, body, now=now
                )
            if action == "pause":
                schedule = await schedules.pause(session, principal, schedule_id, now=now)
            elif action == "resume":
                schedule = await schedules.resume(session, principal, schedule_id, now=now)
            elif action == "end":
                schedule = await schedules.end(session, principal, schedule_id, now=now)
            if schedule is None:
                schedule = await schedules.get_schedule(session, principal, schedule_id)
            return out(schedule)
