"""Schedule rules (docs/schedules.md): create, read, change, pause, resume and end schedules.
A schedule's rule and its occurrences are ``rules.py``; running the due occurrences (the
scheduler's round, called by ``worker.py``) is ``runs.py``. Services flush, never commit.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from datetime import datetime
from typing import Any, TypeVar

from sqlalchemy.ext.asyncio import AsyncSession

from agora.agents import saved_inputs, versions
from agora.agents import service as agents_service
from agora.auth.principal import Permission, Principal
from agora.jobs import service as jobs_service
from agora.jobs.schemas import JobCreate
from agora.kit import background
from agora.kit.errors import BadRequest, Conflict, FieldError, Forbidden, NotFound
from agora.kit.ids import parse_uuid
from agora.kit.money import to_base, to_display
from agora.kit.timeutil import as_utc, parse_isoformat
from agora.mip003.validation import validate_input
from agora.models import Schedule, ScheduleRun
from agora.models.statuses import AgentStatus, PricingType, ScheduleState
from agora.schedules import repository as repo
from agora.schedules import rules
from agora.schedules.schemas import OccurrencesOut, ScheduleCreate, ScheduleUpdate

ACTIVE, PAUSED, ENDED = ScheduleState.ACTIVE, ScheduleState.PAUSED, ScheduleState.ENDED
NO_OCCURRENCE = "no occurrence before endsAt"
# Wakes this process's scheduler when a schedule may have become due sooner (after commit).
TOPIC = "schedules_changed"
DEFAULT_LIMIT, MAX_LIMIT = 20, 100
RULE_FIELDS = frozenset({"cron", "intervalSeconds", "timezone", "startsAt", "endsAt"})
T = TypeVar("T")
R = TypeVar("R", Schedule, ScheduleRun)


def _credits(value: float | None, field: str) -> int | None:
    if value is None:
        return None
    try:
        return to_base(value)
    except ValueError as exc:
        raise BadRequest.field(field, str(exc)) from exc


def _require_owner_key(principal: Principal) -> None:
    principal.require(Permission.JOBS_WRITE)
    if principal.key_kind not in ("user", "admin"):
        raise Forbidden("Schedules are made by people (a user key or a browser session)")


async def _check_agent(
    session: AsyncSession,
    agent_id: str,
    data: dict[str, Any],
    max_credits: float | None,
    pinned: int | None = None,
) -> uuid.UUID:
    """The agent takes jobs and ``data`` fits the pinned version (or the current one)."""
    agent = await agents_service.get_for_job(session, agent_id)
    if pinned is not None:
        agent = await versions.at_version(session, agent, pinned)
    if agent.status != AgentStatus.VERIFIED:
        raise BadRequest.field("agentId", f"agent {agent_id} is {agent.status}; it takes no jobs")
    problems = validate_input(agent.input_schema, data)
    if problems:
        raise BadRequest(
            f"inputData.{problems[0].field}: {problems[0].reason}",
            details=[FieldError(f"inputData.{p.field}", p.reason) for p in problems],
        )
    if agent.pricing_type == PricingType.DYNAMIC and not max_credits:
        raise BadRequest.field(
            "maxAcceptedCredits", "the agent is Dynamic-priced: give the most credits you accept"
        )
    problem = jobs_service.price_limit_problem(agent, JobCreate(maxAcceptedCredits=max_credits))
    if problem is not None:
        raise BadRequest.field("maxAcceptedCredits", problem)
    return agent.id


async def create_schedule(
    session: AsyncSession, principal: Principal, body: ScheduleCreate, *, now: datetime
) -> Schedule:
    _require_owner_key(principal)
    rule = rules.clean_rule(
        body.cron, body.intervalSeconds, body.timezone, body.startsAt, body.endsAt, now
    )
    data, agent_ref, pinned = body.inputData or {}, body.agentId, body.agentVersion
    if body.savedInputId is not None:  # the saved input's agent, input and pinned version
        for field in ("agentId", "inputData", "agentVersion"):
            if field in body.model_fields_set and getattr(body, field) is not None:
                raise BadRequest.field(field, "give either savedInputId or this, not both")
        saved = await saved_inputs.get_owned(session, principal, body.savedInputId)
        data, agent_ref, pinned = dict(saved.input_data), str(saved.agent_id), saved.agent_version
    if agent_ref is None:
        raise BadRequest.field("agentId", "is required (or give savedInputId)")
    agent_id = await _check_agent(session, agent_ref, data, body.maxAcceptedCredits, pinned)
    name = (body.name or "").strip()
    if not name:
        name = body.task.name if body.task else f"Every {rule.cron or f'{rule.interval_seconds}s'}"
    next_run = rules.first_run(rule, now)
    schedule = Schedule(
        workspace_id=principal.workspace_id,
        user_id=principal.user_id,
        agent_id=agent_id,
        name=name[:200],
        input_data=data,
        agent_version=pinned,
        task_template=body.task.model_dump() if body.task else None,
        cron=rule.cron,
        interval_seconds=rule.interval_seconds,
        timezone=rule.timezone,
        starts_at=rule.starts_at,
        ends_at=rule.ends_at,
        max_accepted_credits=_credits(body.maxAcceptedCredits, "maxAcceptedCredits"),
        monthly_budget=_credits(body.monthlyBudget, "monthlyBudget"),
        missed_policy=body.missedPolicy,
        failure_limit=body.failureLimit,
        state=ACTIVE if next_run else ENDED,
        state_reason=None if next_run else NO_OCCURRENCE,
        consecutive_failures=0,
        next_run_at=next_run,
        created_at=now,
        updated_at=now,
    )
    await repo.add(session, schedule)
    await background.signal(session, TOPIC)
    return schedule


async def get_schedule(session: AsyncSession, principal: Principal, schedule_id: str) -> Schedule:
    """One of the caller's schedules in the current workspace; any other id → 404."""
    parsed = parse_uuid(schedule_id)
    found = (
        await repo.owned(session, parsed, principal.user_id, principal.workspace_id)
        if parsed
        else None
    )
    if found is None:
        raise NotFound(f"Schedule {schedule_id} not found")
    return found


def _limit(limit: int | None) -> int:
    size = DEFAULT_LIMIT if limit is None else limit
    if not 1 <= size <= MAX_LIMIT:
        raise BadRequest.field("limit", f"must be between 1 and {MAX_LIMIT}")
    return size


def _position(cursor: str | None, parse: Callable[[str], T | None]) -> T | None:
    """Where a page starts: after the previous page's ``nextCursor`` (400 when it is not one)."""
    if not cursor:
        return None
    found = parse(cursor)
    if found is None:
        raise BadRequest.field("cursor", "must be the nextCursor of the previous page")
    return found


def _page(rows: list[R], size: int, cursor_of: Callable[[R], str]) -> tuple[list[R], str | None]:
    """The page (``rows`` were read one past its ``size``) and the next page's cursor."""
    page = rows[:size]
    return page, (cursor_of(page[-1]) if len(rows) > size and page else None)


async def list_schedules(
    session: AsyncSession, principal: Principal, *, cursor: str | None, limit: int | None
) -> tuple[list[Schedule], str | None]:
    """The caller's schedules in the workspace, newest first."""
    size, before = _limit(limit), _position(cursor, parse_uuid)
    rows = await repo.list_owned(
        session, principal.user_id, principal.workspace_id, before_id=before, limit=size + 1
    )
    return _page(rows, size, lambda schedule: str(schedule.id))


async def list_runs(
    session: AsyncSession,
    principal: Principal,
    schedule_id: str,
    *,
    cursor: str | None,
    limit: int | None,
) -> tuple[list[ScheduleRun], str | None]:
    """A schedule's recorded occurrences, newest first."""
    schedule = await get_schedule(session, principal, schedule_id)
    size, before = _limit(limit), _position(cursor, parse_isoformat)
    rows = await repo.runs_of(session, schedule.id, before=before, limit=size + 1)
    return _page(rows, size, lambda run: as_utc(run.occurrence_at).isoformat())


async def occurrences(
    session: AsyncSession, principal: Principal, schedule_id: str, *, now: datetime
) -> tuple[Schedule, OccurrencesOut]:
    """The next five occurrences of a schedule (none once it has ended)."""
    schedule = await get_schedule(session, principal, schedule_id)
    if schedule.state == ENDED:
        return schedule, rules.shown([], schedule.timezone)
    start = max(now, as_utc(schedule.next_run_at)) if schedule.next_run_at else now
    return schedule, rules.shown(rules.upcoming(rules.rule_of(schedule), start), schedule.timezone)


async def _change_rule(
    session: AsyncSession, schedule: Schedule, body: ScheduleUpdate, now: datetime
) -> None:
    """A changed rule (the fields sent, the others kept) restarts the occurrences from now."""
    sent = body.model_fields_set
    cron, interval = schedule.cron, schedule.interval_seconds
    if "cron" in sent or "intervalSeconds" in sent:
        cron = body.cron if "cron" in sent else None
        interval = body.intervalSeconds if "intervalSeconds" in sent else None
    rule = rules.clean_rule(
        cron,
        interval,
        body.timezone if "timezone" in sent and body.timezone else schedule.timezone,
        body.startsAt if "startsAt" in sent else as_utc(schedule.starts_at),
        body.endsAt if "endsAt" in sent else schedule.ends_at and as_utc(schedule.ends_at),
        now,
    )
    schedule.cron, schedule.interval_seconds = rule.cron, rule.interval_seconds
    schedule.timezone, schedule.starts_at, schedule.ends_at = (
        rule.timezone,
        rule.starts_at,
        rule.ends_at,
    )
    schedule.next_run_at = rules.first_run(rule, now)
    await background.signal(session, TOPIC)
    if schedule.next_run_at is None:
        schedule.state, schedule.state_reason = ENDED, NO_OCCURRENCE


async def _change_input(session: AsyncSession, schedule: Schedule, body: ScheduleUpdate) -> None:
    """New input data, price limit and/or pinned version (null: follow the latest compatible),
    checked against the agent as at creation."""
    sent = body.model_fields_set
    data = body.inputData if "inputData" in sent and body.inputData else schedule.input_data
    pinned = body.agentVersion if "agentVersion" in sent else schedule.agent_version
    kept = schedule.max_accepted_credits
    limit = body.maxAcceptedCredits if "maxAcceptedCredits" in sent else (
        to_display(kept) if kept else None
    )  # fmt: skip
    await _check_agent(session, str(schedule.agent_id), data, limit, pinned)
    schedule.input_data = data
    schedule.agent_version = pinned
    schedule.max_accepted_credits = _credits(limit, "maxAcceptedCredits")


async def update_schedule(
    session: AsyncSession,
    principal: Principal,
    schedule_id: str,
    body: ScheduleUpdate,
    *,
    now: datetime,
) -> Schedule:
    schedule = await _to_change(session, principal, schedule_id, "; create a new one")
    sent = body.model_fields_set
    if not sent:
        raise BadRequest("Send at least one field to change")
    for field in ("name", "inputData", "timezone", "missedPolicy", "failureLimit", "startsAt"):
        if field in sent and getattr(body, field) is None:
            raise BadRequest.field(field, "may not be null")
    if sent & RULE_FIELDS:
        await _change_rule(session, schedule, body, now)
    if sent & {"inputData", "maxAcceptedCredits", "agentVersion"}:
        await _change_input(session, schedule, body)
    if "name" in sent and body.name:
        schedule.name = body.name.strip() or schedule.name
    if "task" in sent:
        schedule.task_template = body.task.model_dump() if body.task else None
    if "monthlyBudget" in sent:
        schedule.monthly_budget = _credits(body.monthlyBudget, "monthlyBudget")
    if "missedPolicy" in sent and body.missedPolicy:
        schedule.missed_policy = body.missedPolicy
    if "failureLimit" in sent and body.failureLimit:
        schedule.failure_limit = body.failureLimit
    schedule.updated_at = now
    await session.flush()
    return schedule


async def _to_change(
    session: AsyncSession, principal: Principal, schedule_id: str, hint: str = ""
) -> Schedule:
    """One of the caller's schedules, to change: people only (a user key or a browser
    session), and an ended schedule changes no more (409)."""
    _require_owner_key(principal)
    schedule = await get_schedule(session, principal, schedule_id)
    if schedule.state == ENDED:
        raise Conflict(f"Schedule {schedule.id} has ended{hint}")
    return schedule


async def pause(
    session: AsyncSession, principal: Principal, schedule_id: str, *, now: datetime
) -> Schedule:
    schedule = await _to_change(session, principal, schedule_id)
    schedule.state, schedule.state_reason, schedule.updated_at = PAUSED, "paused by you", now
    await session.flush()
    return schedule


async def resume(
    session: AsyncSession, principal: Principal, schedule_id: str, *, now: datetime
) -> Schedule:
    """Active again from now: occurrences that fell while paused are neither run nor recorded;
    the count of failed runs in a row starts over."""
    schedule = await _to_change(session, principal, schedule_id)
    if schedule.state == ACTIVE:
        return schedule
    schedule.next_run_at = rules.first_run(rules.rule_of(schedule), now)
    schedule.state = ACTIVE if schedule.next_run_at else ENDED
    schedule.state_reason = None if schedule.next_run_at else NO_OCCURRENCE
    schedule.consecutive_failures = 0
    schedule.lease_owner = schedule.lease_expires_at = None
    schedule.updated_at = now
    await session.flush()
    await background.signal(session, TOPIC)
    return schedule


async def end(
    session: AsyncSession, principal: Principal, schedule_id: str, *, now: datetime
) -> Schedule:
    _require_owner_key(principal)
    schedule = await get_schedule(session, principal, schedule_id)
    if schedule.state != ENDED:
        schedule.state, schedule.state_reason = ENDED, "ended by you"
        schedule.next_run_at = None
        schedule.updated_at = now
        await session.flush()
    return schedule
