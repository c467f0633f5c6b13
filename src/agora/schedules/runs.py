"""Running schedules: the scheduler's round (schedules/worker.py opens its transactions and
calls these). For a schedule it holds the lease of, ``run_schedule`` records its due
occurrences, runs each (a job created as the schedule's owner, and a task holding it when the
schedule has a task template), records the missed ones by the schedule's policy, moves
``next_run_at`` on and gives the lease back; ``settle_outcomes`` copies ended jobs' outcomes onto
their runs and counts failures in a row (pausing the schedule at its limit and telling the owner).

Every run goes through the jobs domain's admission (``jobs.service.create_job``) as the
schedule's owner, so a run holds credits, passes the organization's caps and the balance check
exactly as a job created by hand. No outbound call is made here. Services flush, never commit.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from agora.agents import service as agents_service
from agora.agents import versions
from agora.auth import service as auth
from agora.auth.principal import Principal
from agora.auth.roles import ROLE_PERMISSIONS
from agora.jobs import lifecycle
from agora.jobs import service as jobs_service
from agora.jobs.schemas import JobCreate
from agora.kit.db import add_unless_taken
from agora.kit.errors import AgoraError, Forbidden
from agora.kit.money import to_display
from agora.kit.timeutil import as_utc
from agora.models import Schedule, ScheduleRun
from agora.models.statuses import MissedPolicy, PricingType, ScheduleRunStatus, ScheduleState
from agora.schedules import notify, rules, timing
from agora.schedules import repository as repo
from agora.schedules.service import NO_OCCURRENCE
from agora.settings import Settings
from agora.tasks import service as tasks_service
from agora.tasks.schemas import TaskCreate

# An occurrence found more than this late was missed (the workers were down): the schedule's
# missed-occurrence policy decides (docs/schedules.md, "Missed occurrences").
MISSED_GRACE = timedelta(minutes=5)
# A round records at most this many on-time occurrences of one schedule (the rest next round).
MAX_RUNS_PER_ROUND = 20
# Missed occurrences counted one by one at most; beyond, the count is "at least" this.
MAX_MISSED_SCAN = 10_000


@dataclass
class Due:
    """What one round does for a schedule: on-time occurrences, the missed ones, what is next."""

    on_time: list[datetime]
    missed: int
    first_missed: datetime | None
    last_missed: datetime | None
    next_run: datetime | None


def due_occurrences(rule: rules.Rule, next_run: datetime, now: datetime) -> Due:
    due = Due([], 0, None, None, None)
    for moment in timing.occurrences_after(
        cron=rule.cron,
        interval_seconds=rule.interval_seconds,
        timezone=rule.timezone,
        starts_at=rule.starts_at,
        after=next_run - rules.EPSILON,
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
                    after=now - MISSED_GRACE - rules.EPSILON,
                    ends_at=rule.ends_at,
                    count=1,
                )
                return due_tail(due, rule, later[0] if later else None, now)
        else:
            due.on_time.append(moment)
    return due  # pragma: no cover - occurrences never end


def due_tail(due: Due, rule: rules.Rule, resume_at: datetime | None, now: datetime) -> Due:
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
    agent_version: int | None  # pinned; None: the latest compatible
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
        schedule.agent_version,
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
    if not await add_unless_taken(session, run):
        return None
    return run


def _budget_problem(snap: Snapshot, spent: int, price: int) -> str | None:
    if snap.monthly_budget is None or spent + price <= snap.monthly_budget:
        return None
    return (
        f"the schedule's monthly budget of {to_display(snap.monthly_budget)} credits would be "
        f"exceeded ({to_display(spent)} spent this month, this run holds {to_display(price)})"
    )


async def _expected_price(session: AsyncSession, snap: Snapshot, version: int | None) -> int:
    agent = await agents_service.get_for_job(session, str(snap.agent_id))
    if version is not None:
        agent = await versions.at_version(session, agent, version)
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
    """Run one occurrence; returns its status (created, skipped or error) or None when another
    worker had recorded it."""
    run = await _record(session, snap, occurrence, ScheduleRunStatus.PENDING, now, reason=note)
    if run is None:
        return None
    try:
        async with session.begin_nested():
            principal = await owner_principal(session, snap.id, snap.user_id, snap.workspace_id)
            # The version this run makes a job of: pinned, or the latest compatible one.
            version = await versions.chosen(
                session, snap.agent_id, snap.agent_version, snap.input_data
            )
            price = await _expected_price(session, snap, version)
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
                version=version,
            )
            job_id, held = created.job.row.id, int(created.job.row.price)
    except _Skip as skip:
        run.status, run.reason = ScheduleRunStatus.SKIPPED, _join(note, skip.reason)
    except AgoraError as exc:
        run.status = (
            ScheduleRunStatus.SKIPPED if exc.status_code == 402 else ScheduleRunStatus.ERROR
        )
        run.reason = _join(note, exc.message)
    else:
        run.status, run.job_id, run.task_id = ScheduleRunStatus.CREATED, job_id, task_id
        run.credits = held
    # Written now: a later savepoint's rollback must not take this change with it.
    await session.flush()
    return run.status


def _join(note: str | None, reason: str) -> str:
    return f"{reason}; {note}" if note else reason


class _Skip(Exception):
    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass
class _Tally:
    """What a round did for one schedule: occurrences recorded, runs that failed, the last."""

    recorded: int = 0
    failed: int = 0
    last: datetime | None = None

    def ran(self, status: str | None, occurrence: datetime) -> None:
        self.recorded += status is not None
        self.failed += status == ScheduleRunStatus.ERROR
        self.last = occurrence


async def _run_missed(
    session: AsyncSession,
    snap: Snapshot,
    due: Due,
    settings: Settings,
    now: datetime,
    tally: _Tally,
) -> None:
    """The missed occurrences, by the schedule's policy: ``run_once`` runs the latest of them
    once and records the others as one ``missed`` row; ``skip`` records them all as one
    ``missed`` row and runs none."""
    if not (due.missed and due.first_missed is not None and due.last_missed is not None):
        return
    catch_up = snap.missed_policy == MissedPolicy.RUN_ONCE
    unrun = due.missed - 1 if catch_up else due.missed
    if unrun:
        reason = (
            f"{unrun} occurrence(s) from {due.first_missed.isoformat()} were missed while "
            f"no worker ran (policy {snap.missed_policy})"
        )
        missed = ScheduleRunStatus.MISSED
        if await _record(
            session, snap, due.first_missed, missed, now, reason=reason, missed_count=unrun
        ):
            tally.recorded += 1
    if catch_up:
        note = "ran late: it was missed while no worker ran (policy run_once)"
        status = await _run_one(session, snap, due.last_missed, settings, now, note)
        tally.ran(status, due.last_missed)


async def run_schedule(
    session: AsyncSession, schedule: Schedule, *, now: datetime, settings: Settings
) -> int:
    """Record (and run) the due occurrences of a schedule the caller holds the lease of (the
    missed ones, more than ``MISSED_GRACE`` late, e.g. every worker was down, by its policy);
    moves ``next_run_at`` on and gives the lease back. Returns how many occurrences were
    recorded."""
    snap = _snapshot(schedule)
    next_run = as_utc(schedule.next_run_at) if schedule.next_run_at else None
    tally = _Tally()
    if next_run is not None:
        due = due_occurrences(rules.rule_of(schedule), next_run, now)
        await _run_missed(session, snap, due, settings, now, tally)
        for occurrence in due.on_time:
            tally.ran(await _run_one(session, snap, occurrence, settings, now), occurrence)
        next_run = due.next_run
    schedule.next_run_at, schedule.lease_owner, schedule.lease_expires_at = next_run, None, None
    if tally.last is not None:
        schedule.last_run_at = tally.last
    if next_run is None:
        schedule.state, schedule.state_reason = ScheduleState.ENDED, NO_OCCURRENCE
    schedule.updated_at = now
    await session.flush()
    for _ in range(tally.failed):
        await _count_failure(session, snap, now, settings, "the job could not be created")
    return tally.recorded


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


OUTCOMES: dict[str, ScheduleRunStatus] = {
    lifecycle.COMPLETED: ScheduleRunStatus.COMPLETED,
    lifecycle.FAILED: ScheduleRunStatus.FAILED,
    lifecycle.CANCELLED: ScheduleRunStatus.CANCELLED,
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
        if status == ScheduleRunStatus.COMPLETED:
            await repo.reset_failures(session, schedule_id)
        elif status == ScheduleRunStatus.FAILED:
            schedule = await repo.by_id(session, schedule_id)
            if schedule is not None:
                await _count_failure(session, _snapshot(schedule), now, settings, "the job failed")
    return settled
