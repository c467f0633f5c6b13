"""Schedule rules (docs/schedules.md): create, read, change, pause, resume and end schedules,
and run one schedule's due occurrences (the scheduler's work, ``runner.py``).

Every run goes through ``jobs.service.create_job`` as the schedule's owner, so a run holds
credits, passes the organization's caps and the balance check exactly as a job created by hand.
Services flush, never commit.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from agora.agents import service as agents_service
from agora.auth import service as auth
from agora.auth.principal import Permission, Principal
from agora.auth.roles import ROLE_PERMISSIONS
from agora.jobs import lifecycle
from agora.jobs import service as jobs_service
from agora.jobs.schemas import JobCreate
from agora.kit import background
from agora.kit.errors import AgoraError, BadRequest, Conflict, FieldError, Forbidden, NotFound
from agora.kit.ids import parse_uuid
from agora.kit.money import to_base, to_display
from agora.kit.timeutil import as_utc, parse_isoformat
from agora.mip003.validation import validate_input
from agora.models import Schedule, ScheduleRun
from agora.models.statuses import AgentStatus, PricingType
from agora.schedules import notify, timing
from agora.schedules import repository as repo
from agora.schedules.schemas import ScheduleCreate, ScheduleRule, ScheduleUpdate
from agora.settings import Settings
from agora.tasks import service as tasks_service
from agora.tasks.schemas import TaskCreate

ACTIVE, PAUSED, ENDED = repo.ACTIVE, repo.PAUSED, repo.ENDED
# Wakes this process's scheduler when a schedule may have become due sooner (after commit).
TOPIC = "schedules_changed"
PREVIEW_COUNT = 5
DEFAULT_LIMIT, MAX_LIMIT = 20, 100
# An occurrence found more than this late was missed (the workers were down): the schedule's
# missed-occurrence policy decides (docs/schedules.md, "Missed occurrences").
MISSED_GRACE = timedelta(minutes=5)
# A round records at most this many on-time occurrences of one schedule (the rest next round).
MAX_RUNS_PER_ROUND = 20
# Missed occurrences counted one by one at most; beyond, the count is "at least" this.
MAX_MISSED_SCAN = 10_000
EPSILON = timedelta(microseconds=1)


# ---- rules and previews -----------------------------------------------------------------


@dataclass(frozen=True)
class Rule:
    cron: str | None
    interval_seconds: int | None
    timezone: str
    starts_at: datetime
    ends_at: datetime | None


def _aware(value: datetime, field: str) -> datetime:
    if value.tzinfo is None:
        raise BadRequest.field(field, "must carry a UTC offset (e.g. 2026-12-01T09:00:00Z)")
    return value.astimezone(UTC)


def clean_rule(
    cron: str | None,
    interval_seconds: int | None,
    timezone: str,
    starts_at: datetime | None,
    ends_at: datetime | None,
    now: datetime,
) -> Rule:
    """The rule from a request, or 400 naming the field."""
    if (cron is None) == (interval_seconds is None):
        raise BadRequest.field("cron", "give exactly one of cron and intervalSeconds")
    try:
        tz = timing.zone(timezone).key
        cleaned_cron = timing.check_cron(cron) if cron is not None else None
        interval = timing.check_interval(interval_seconds) if interval_seconds is not None else None
    except timing.RuleError as exc:
        raise BadRequest.field(exc.field, exc.reason) from exc
    start = _aware(starts_at, "startsAt") if starts_at is not None else now
    end = _aware(ends_at, "endsAt") if ends_at is not None else None
    if end is not None and end <= start:
        raise BadRequest.field("endsAt", "must be after startsAt")
    return Rule(cleaned_cron, interval, tz, start, end)


def upcoming(rule: Rule, now: datetime, count: int = PREVIEW_COUNT) -> list[datetime]:
    """The next ``count`` occurrences at or after ``now``."""
    return timing.next_occurrences(
        cron=rule.cron,
        interval_seconds=rule.interval_seconds,
        timezone=rule.timezone,
        starts_at=rule.starts_at,
        after=now - EPSILON,
        ends_at=rule.ends_at,
        count=count,
    )


def preview(body: ScheduleRule, now: datetime) -> tuple[Rule, list[datetime]]:
    rule = clean_rule(
        body.cron, body.intervalSeconds, body.timezone, body.startsAt, body.endsAt, now
    )
    return rule, upcoming(rule, now)


def local_times(moments: list[datetime], timezone: str) -> list[str]:
    tz = timing.zone(timezone)
    return [m.astimezone(tz).isoformat(timespec="seconds") for m in moments]


def _rule_of(schedule: Schedule) -> Rule:
    return Rule(
        schedule.cron,
        schedule.interval_seconds,
        schedule.timezone,
        as_utc(schedule.starts_at),
        as_utc(schedule.ends_at) if schedule.ends_at else None,
    )


def _credits(value: float | None, field: str) -> int | None:
    if value is None:
        return None
    try:
        return to_base(value)
    except ValueError as exc:
        raise BadRequest.field(field, str(exc)) from exc


# ---- create, read, change ---------------------------------------------------------------


def _require_owner_key(principal: Principal) -> None:
    principal.require(Permission.JOBS_WRITE)
    if principal.key_kind not in ("user", "admin"):
        raise Forbidden("Schedules are made by people (a user key or a browser session)")


async def _check_agent(
    session: AsyncSession, agent_id: str, data: dict[str, Any], max_credits: float | None
) -> uuid.UUID:
    agent = await agents_service.get_for_job(session, agent_id)
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


def _first_run(rule: Rule, now: datetime) -> datetime | None:
    found = upcoming(rule, now, 1)
    return found[0] if found else None


async def create_schedule(
    session: AsyncSession, principal: Principal, body: ScheduleCreate, *, now: datetime
) -> Schedule:
    _require_owner_key(principal)
    rule = clean_rule(
        body.cron, body.intervalSeconds, body.timezone, body.startsAt, body.endsAt, now
    )
    data = body.inputData or {}
    agent_id = await _check_agent(session, body.agentId, data, body.maxAcceptedCredits)
    name = (body.name or "").strip()
    if not name:
        name = body.task.name if body.task else f"Every {rule.cron or f'{rule.interval_seconds}s'}"
    next_run = _first_run(rule, now)
    schedule = Schedule(
        workspace_id=principal.workspace_id,
        user_id=principal.user_id,
        agent_id=agent_id,
        name=name[:200],
        input_data=data,
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
        state_reason=None if next_run else "no occurrence before endsAt",
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


async def list_schedules(
    session: AsyncSession, principal: Principal, *, cursor: str | None, limit: int | None
) -> tuple[list[Schedule], str | None]:
    size = _limit(limit)
    before = None
    if cursor:
        before = parse_uuid(cursor)
        if before is None:
            raise BadRequest.field("cursor", "must be the nextCursor of the previous page")
    rows = await repo.list_owned(
        session, principal.user_id, principal.workspace_id, before_id=before, limit=size + 1
    )
    more = len(rows) > size
    rows = rows[:size]
    return rows, (str(rows[-1].id) if more and rows else None)


async def list_runs(
    session: AsyncSession,
    principal: Principal,
    schedule_id: str,
    *,
    cursor: str | None,
    limit: int | None,
) -> tuple[list[ScheduleRun], str | None]:
    schedule = await get_schedule(session, principal, schedule_id)
    size = _limit(limit)
    before = None
    if cursor:
        before = parse_isoformat(cursor)
        if before is None:
            raise BadRequest.field("cursor", "must be the nextCursor of the previous page")
    rows = await repo.runs_of(session, schedule.id, before=before, limit=size + 1)
    more = len(rows) > size
    rows = rows[:size]
    next_cursor = as_utc(rows[-1].occurrence_at).isoformat() if more and rows else None
    return rows, next_cursor


async def occurrences(
    session: AsyncSession, principal: Principal, schedule_id: str, *, now: datetime
) -> tuple[Schedule, list[datetime]]:
    """The next five occurrences of a schedule (none once it has ended)."""
    schedule = await get_schedule(session, principal, schedule_id)
    if schedule.state == ENDED:
        return schedule, []
    start = max(now, as_utc(schedule.next_run_at)) if schedule.next_run_at else now
    return schedule, upcoming(_rule_of(schedule), start)


async def update_schedule(
    session: AsyncSession,
    principal: Principal,
    schedule_id: str,
    body: ScheduleUpdate,
    *,
    now: datetime,
) -> Schedule:
    _require_owner_key(principal)
    schedule = await get_schedule(session, principal, schedule_id)
    if schedule.state == ENDED:
        raise Conflict(f"Schedule {schedule.id} has ended; create a new one")
    sent = body.model_fields_set
    if not sent:
        raise BadRequest("Send at least one field to change")
    for field in ("name", "inputData", "timezone", "missedPolicy", "failureLimit", "startsAt"):
        if field in sent and getattr(body, field) is None:
            raise BadRequest.field(field, "may not be null")
    rule_fields = {"cron", "intervalSeconds", "timezone", "startsAt", "endsAt"}
    if sent & rule_fields:
        cron, interval = schedule.cron, schedule.interval_seconds
        if "cron" in sent or "intervalSeconds" in sent:
            cron = body.cron if "cron" in sent else None
            interval = body.intervalSeconds if "intervalSeconds" in sent else None
        rule = clean_rule(
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
        schedule.next_run_at = _first_run(rule, now)
        await background.signal(session, TOPIC)
        if schedule.next_run_at is None:
            schedule.state, schedule.state_reason = ENDED, "no occurrence before endsAt"
    if "inputData" in sent or "maxAcceptedCredits" in sent:
        data = body.inputData if "inputData" in sent and body.inputData else schedule.input_data
        limit = (
            body.maxAcceptedCredits
            if "maxAcceptedCredits" in sent
            else (
                to_display(schedule.max_accepted_credits) if schedule.max_accepted_credits else None
            )
        )
        await _check_agent(session, str(schedule.agent_id), data, limit)
        schedule.input_data = data
        schedule.max_accepted_credits = _credits(limit, "maxAcceptedCredits")
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


async def pause(
    session: AsyncSession, principal: Principal, schedule_id: str, *, now: datetime
) -> Schedule:
    _require_owner_key(principal)
    schedule = await get_schedule(session, principal, schedule_id)
    if schedule.state == ENDED:
        raise Conflict(f"Schedule {schedule.id} has ended")
    schedule.state, schedule.state_reason, schedule.updated_at = PAUSED, "paused by you", now
    await session.flush()
    return schedule


async def resume(
    session: AsyncSession, principal: Principal, schedule_id: str, *, now: datetime
) -> Schedule:
    """Active again from now: occurrences that fell while paused are neither run nor recorded;
    the count of failed runs in a row starts over."""
    _require_owner_key(principal)
    schedule = await get_schedule(session, principal, schedule_id)
    if schedule.state == ENDED:
        raise Conflict(f"Schedule {schedule.id} has ended")
    if schedule.state == ACTIVE:
        return schedule
    schedule.next_run_at = _first_run(_rule_of(schedule), now)
    schedule.state = ACTIVE if schedule.next_run_at else ENDED
    schedule.state_reason = None if schedule.next_run_at else "no occurrence before endsAt"
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


# ---- running (the scheduler) ------------------------------------------------------------


@dataclass
class Due:
    """What one round does for a schedule: on-time occurrences, the missed ones, what is next."""

    on_time: list[datetime]
    missed: int
    first_missed: datetime | None
    last_missed: datetime | None
    next_run: datetime | None


def due_occurrences(rule: Rule, next_run: datetime, now: datetime) -> Due:
    due = Due([], 0, None, None, None)
    for moment in timing.occurrences_after(
        cron=rule.cron,
        interval_seconds=rule.interval_seconds,
        timezone=rule.timezone,
        starts_at=rule.starts_at,
        after=next_run - EPSILON,
    ):
        if moment > now or (rule.ends_at is not None and moment > rule.ends_at):
            if rule.ends_at is None or moment <= rule.ends_at:
                due.next_run = moment
            return due
        if len(due.on_time) >= MAX_RUNS_PER_ROUND:
            due.next_run = moment
            return due
        if now - moment > MISSED_GRACE:
            due.missed += 1
            due.first_missed = due.first_missed or moment
            due.last_missed = moment
            if due.missed >= MAX_MISSED_SCAN:  # skip ahead to the last late one before now
                later = timing.next_occurrences(
                    cron=rule.cron,
                    interval_seconds=rule.interval_seconds,
                    timezone=rule.timezone,
                    starts_at=rule.starts_at,
                    after=now - MISSED_GRACE - EPSILON,
                    ends_at=rule.ends_at,
                    count=1,
                )
                return due_tail(due, rule, later[0] if later else None, now)
        else:
            due.on_time.append(moment)
    return due  # pragma: no cover - occurrences never end


def due_tail(due: Due, rule: Rule, resume_at: datetime | None, now: datetime) -> Due:
    if resume_at is None:
        return due
    rest = due_occurrences(rule, resume_at, now)
    rest.missed += due.missed
    rest.first_missed = due.first_missed
    rest.last_missed = rest.last_missed or due.last_missed
    return rest


async def owner_principal(
    session: AsyncSession, schedule_id: uuid.UUID, user_id: uuid.UUID, workspace_id: uuid.UUID
) -> Principal:
    """The schedule's owner as a user key would present them, checked at each run (a member who
    left the organization, a suspended owner or organization runs nothing)."""
    found = await repo.owner_of(session, user_id, workspace_id)
    if found is None:
        raise Forbidden("the schedule's owner or workspace no longer exists")
    user, workspace = found
    if user.suspended_at is not None:
        raise Forbidden("the schedule's owner is suspended")
    role = None
    if workspace.organization_id is not None:
        role, suspended = await auth.org_standing(session, user.id, workspace.organization_id)
        if role is None:
            raise Forbidden("the owner is no longer a member of the workspace's organization")
        if suspended:
            raise Forbidden("the workspace's organization is suspended")
    elif workspace.owner_user_id != user.id:
        raise Forbidden("the workspace is not the owner's")
    return Principal(
        user_id=user.id,
        key_id=schedule_id,
        key_kind="user",
        workspace_id=workspace.id,
        organization_id=workspace.organization_id,
        org_role=role,
        role_limit=ROLE_PERMISSIONS.get(role) if role else None,
    )


@dataclass(frozen=True)
class Snapshot:
    """The schedule's values a round needs (read once: ORM rows expire on a savepoint's
    rollback, and an async session cannot lazy-load them)."""

    id: uuid.UUID
    user_id: uuid.UUID
    workspace_id: uuid.UUID
    name: str
    agent_id: uuid.UUID
    input_data: dict[str, Any]
    task_template: dict[str, Any] | None
    timezone: str
    max_accepted_credits: int | None
    monthly_budget: int | None
    missed_policy: str
    failure_limit: int


def _snapshot(schedule: Schedule) -> Snapshot:
    return Snapshot(
        schedule.id,
        schedule.user_id,
        schedule.workspace_id,
        schedule.name,
        schedule.agent_id,
        dict(schedule.input_data or {}),
        dict(schedule.task_template) if schedule.task_template else None,
        schedule.timezone,
        schedule.max_accepted_credits,
        schedule.monthly_budget,
        schedule.missed_policy,
        schedule.failure_limit,
    )


async def _record(
    session: AsyncSession,
    snap: Snapshot,
    occurrence: datetime,
    status: str,
    now: datetime,
    **kw: Any,
) -> ScheduleRun | None:
    """Record an occurrence once; None when it is already recorded (another worker, a
    restart): the unique key decides."""
    if await repo.run_exists(session, snap.id, occurrence):
        return None
    run = ScheduleRun(
        schedule_id=snap.id,
        occurrence_at=occurrence,
        status=status,
        period=timing.period(occurrence, snap.timezone),
        created_at=now,
        updated_at=now,
        **kw,
    )
    try:
        async with session.begin_nested():
            await repo.add(session, run)
    except IntegrityError:
        return None
    return run


def _budget_problem(snap: Snapshot, spent: int, price: int) -> str | None:
    if snap.monthly_budget is None or spent + price <= snap.monthly_budget:
        return None
    return (
        f"the schedule's monthly budget of {to_display(snap.monthly_budget)} credits would be "
        f"exceeded ({to_display(spent)} spent this month, this run holds {to_display(price)})"
    )


async def _expected_price(session: AsyncSession, snap: Snapshot) -> int:
    agent = await agents_service.get_for_job(session, str(snap.agent_id))
    if agent.pricing_type == PricingType.DYNAMIC:
        return snap.max_accepted_credits or 0
    return int(agent.price + agent.fee)


async def _run_one(
    session: AsyncSession,
    snap: Snapshot,
    occurrence: datetime,
    settings: Settings,
    now: datetime,
    note: str | None = None,
) -> str | None:
    """Run one occurrence; returns its status ("created", "skipped", "error") or None when
    another worker had recorded it."""
    run = await _record(session, snap, occurrence, "pending", now, reason=note)
    if run is None:
        return None
    try:
        async with session.begin_nested():
            principal = await owner_principal(session, snap.id, snap.user_id, snap.workspace_id)
            price = await _expected_price(session, snap)
            spent = await repo.spent(session, snap.id, run.period)
            problem = _budget_problem(snap, spent, price)
            if problem is not None:
                raise _Skip(problem)
            task_id = None
            if snap.task_template is not None:
                local = occurrence.astimezone(timing.zone(snap.timezone))
                task = await tasks_service.create_task(
                    session,
                    principal,
                    TaskCreate(
                        name=f"{snap.task_template['name']} · {local:%Y-%m-%d %H:%M}"[:500],
                        description=snap.task_template.get("description") or "",
                    ),
                )
                task_id = task.id
            created = await jobs_service.create_job(
                session,
                principal,
                str(snap.agent_id),
                JobCreate(
                    inputData=snap.input_data,
                    maxAcceptedCredits=(
                        float(to_display(snap.max_accepted_credits))
                        if snap.max_accepted_credits is not None
                        else None
                    ),
                    taskId=str(task_id) if task_id else None,
                ),
                settings=settings,
            )
            job_id, held = created.job.row.id, int(created.job.row.price)
    except _Skip as skip:
        run.status, run.reason = "skipped", _join(note, skip.reason)
    except AgoraError as exc:
        run.status = "skipped" if exc.status_code == 402 else "error"
        run.reason = _join(note, exc.message)
    else:
        run.status, run.job_id, run.task_id, run.credits = "created", job_id, task_id, held
    # Written now: a later savepoint's rollback must not take this change with it.
    await session.flush()
    return run.status


def _join(note: str | None, reason: str) -> str:
    return f"{reason}; {note}" if note else reason


class _Skip(Exception):
    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


async def run_schedule(
    session: AsyncSession, schedule: Schedule, *, now: datetime, settings: Settings
) -> int:
    """Record (and run) the due occurrences of a schedule the caller holds the lease of; moves
    ``next_run_at`` on and gives the lease back. Returns how many occurrences were recorded.

    Missed occurrences (more than ``MISSED_GRACE`` late, e.g. every worker was down): policy
    ``run_once`` runs the latest of them once and records the others as one ``missed`` row;
    ``skip`` records them all as one ``missed`` row and runs none."""
    snap = _snapshot(schedule)
    rule = _rule_of(schedule)
    next_run = as_utc(schedule.next_run_at) if schedule.next_run_at else None
    recorded = failed = 0
    last: datetime | None = None
    if next_run is not None:
        due = due_occurrences(rule, next_run, now)
        if due.missed and due.first_missed is not None and due.last_missed is not None:
            catch_up = snap.missed_policy == "run_once"
            unrun = due.missed - 1 if catch_up else due.missed
            if unrun:
                reason = (
                    f"{unrun} occurrence(s) from {due.first_missed.isoformat()} were missed while "
                    f"no worker ran (policy {snap.missed_policy})"
                )
                if await _record(
                    session,
                    snap,
                    due.first_missed,
                    "missed",
                    now,
                    reason=reason,
                    missed_count=unrun,
                ):
                    recorded += 1
            if catch_up:
                note = "ran late: it was missed while no worker ran (policy run_once)"
                status = await _run_one(session, snap, due.last_missed, settings, now, note)
                recorded += status is not None
                failed += status == "error"
                last = due.last_missed
        for occurrence in due.on_time:
            status = await _run_one(session, snap, occurrence, settings, now)
            recorded += status is not None
            failed += status == "error"
            last = occurrence
        next_run = due.next_run
    values: dict[str, Any] = {
        "next_run_at": next_run,
        "lease_owner": None,
        "lease_expires_at": None,
    }
    if last is not None:
        values["last_run_at"] = last
    if next_run is None:
        values.update(state=ENDED, state_reason="no occurrence before endsAt")
    for name, value in values.items():
        setattr(schedule, name, value)
    schedule.updated_at = now
    await session.flush()
    for _ in range(failed):
        await _count_failure(session, snap, now, settings, "the job could not be created")
    return recorded


async def _count_failure(
    session: AsyncSession, snap: Snapshot, now: datetime, settings: Settings, what: str
) -> None:
    count = await repo.add_failure(session, snap.id)
    if count < snap.failure_limit:
        return
    reason = f"{count} runs in a row failed (the last: {what}); paused after {snap.failure_limit}"
    paused = await repo.pause_if_active(session, snap.id, reason, now)
    if paused is not None:
        await notify.schedule_paused(
            session, user_id=snap.user_id, schedule_id=snap.id, name=snap.name, reason=reason
        )


OUTCOMES: dict[str, str] = {
    lifecycle.COMPLETED: "completed",
    lifecycle.FAILED: "failed",
    lifecycle.CANCELLED: "cancelled",
}
SETTLE_BATCH = 100


async def outcomes_waiting(session: AsyncSession) -> bool:
    return bool(await repo.finished_runs(session, tuple(OUTCOMES), 1))


async def settle_outcomes(session: AsyncSession, *, now: datetime, settings: Settings) -> int:
    """Copy ended jobs' outcomes onto their runs; a failed job counts one more failure in a row
    (pausing the schedule at its limit and telling the owner), a completed one starts the count
    over. A cancelled job (the owner's doing) counts neither way. Returns the runs settled."""
    settled = 0
    for run_id, schedule_id, job_status in await repo.finished_runs(
        session, tuple(OUTCOMES), SETTLE_BATCH
    ):
        status = OUTCOMES[job_status]
        if not await repo.settle_run(session, run_id, status, now):
            continue  # another worker settled it
        settled += 1
        if status == "completed":
            await repo.reset_failures(session, schedule_id)
        elif status == "failed":
            schedule = await repo.by_id(session, schedule_id)
            if schedule is not None:
                await _count_failure(session, _snapshot(schedule), now, settings, "the job failed")
    return settled
