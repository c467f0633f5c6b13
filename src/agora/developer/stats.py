"""A developer's figures for one of their agents: its status and review, its availability
history, its jobs (counts, failure rate, p50 duration), credits earned and the last errors Agora
saw; and the same per UTC day for the charts (developer/pages.py)."""

from __future__ import annotations

import statistics
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from agora.auth.principal import Principal
from agora.developer import repository as repo
from agora.developer.listings import review_of
from agora.developer.schemas import (
    AvailabilityOut,
    CheckOut,
    DeveloperStatsOut,
    ErrorSeenOut,
    JobCountsOut,
)
from agora.developer.service import get_owned
from agora.kit.timeutil import utcnow
from agora.models.statuses import JobStatus

MAX_CHECKS_SHOWN = 50
MAX_ERRORS_SHOWN = 10


async def stats(session: AsyncSession, principal: Principal, agent_id: str) -> DeveloperStatsOut:
    agent = await get_owned(session, principal, agent_id)
    checks = await repo.recent_checks(session, agent.id, MAX_CHECKS_SHOWN)
    counts = await repo.job_counts(session, agent.id)
    completed, failed = counts.get(JobStatus.COMPLETED, 0), counts.get(JobStatus.FAILED, 0)
    cancelled = counts.get(JobStatus.CANCELLED, 0)
    total = sum(counts.values())
    durations = [
        (done - (started or created)).total_seconds()
        for created, started, done in await repo.completed_times(session, agent.id)
    ]
    errors = await repo.last_errors(session, agent.id, MAX_ERRORS_SHOWN)
    return DeveloperStatsOut(
        agent_id=agent.id,
        status=agent.status,
        review=review_of(agent),
        availability=AvailabilityOut(
            checks=[CheckOut.model_validate(c) for c in checks],
            uptime=sum(c.available for c in checks) / len(checks) if checks else None,
        ),
        jobs=JobCountsOut(
            total=total,
            completed=completed,
            failed=failed,
            cancelled=cancelled,
            active=total - completed - failed - cancelled,
        ),
        failure_rate=failed / (completed + failed) if completed + failed else None,
        p50_duration_seconds=max(0.0, statistics.median(durations)) if durations else None,
        credits_earned=await repo.credits_earned(session, agent.id),
        last_errors=[
            ErrorSeenOut(job_id=job_id, at=at, agent_job_status=status, error=error[:2000])
            for job_id, at, status, error in errors
        ],
    )


MAX_DAILY_JOBS = 5000


@dataclass(frozen=True)
class Day:
    """One UTC day of an agent's jobs (by the day each job was created)."""

    day: date
    jobs: int
    completed: int
    failed: int
    failure_rate: float | None  # failed / (completed + failed)
    p50_duration_seconds: float | None  # completed jobs, start (or creation) to completion
    credits_earned: int  # base units, as ``credits_earned``


async def daily(
    session: AsyncSession, principal: Principal, agent_id: str, days: int = 14
) -> list[Day]:
    """The last ``days`` UTC days (today included, oldest first) of jobs, failure rate, p50
    duration and credits earned, from the agent's jobs created in them (at most
    ``MAX_DAILY_JOBS``, the newest)."""
    agent = await get_owned(session, principal, agent_id)
    today = utcnow().date()
    first = today - timedelta(days=days - 1)
    since = datetime.combine(first, time.min, tzinfo=UTC)
    buckets: dict[date, list[Any]] = {first + timedelta(days=i): [] for i in range(days)}
    for row in await repo.jobs_since(session, agent.id, since, MAX_DAILY_JOBS):
        created = row[0] if row[0].tzinfo else row[0].replace(tzinfo=UTC)
        buckets.setdefault(created.astimezone(UTC).date(), []).append(row)
    out = []
    for day in sorted(d for d in buckets if d >= first):
        rows = buckets[day]
        completed = [r for r in rows if r[1] == JobStatus.COMPLETED]
        failed = sum(1 for r in rows if r[1] == JobStatus.FAILED)
        durations = [
            (done - (started or created)).total_seconds()
            for created, _status, started, done, _earned in completed
            if done is not None
        ]
        ended = len(completed) + failed
        out.append(
            Day(
                day=day,
                jobs=len(rows),
                completed=len(completed),
                failed=failed,
                failure_rate=failed / ended if ended else None,
                p50_duration_seconds=max(0.0, statistics.median(durations)) if durations else None,
                credits_earned=sum(int(r[4] or 0) for r in rows),
            )
        )
    return out
