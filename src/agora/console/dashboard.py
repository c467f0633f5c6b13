"""The console's dashboard: the last 24 hours of jobs per status and per agent, the dispatch
lag, and what waits for an operator (refunds, disputes, reviews, the registry quarantine,
failed deliveries)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy.ext.asyncio import AsyncSession

from agora.console import repository as repo
from agora.kit.timeutil import as_utc, utcnow


@dataclass(frozen=True)
class AgentFailures:
    agent_id: str
    name: str
    jobs: int
    failed: int

    @property
    def failure_rate(self) -> float:
        return round(self.failed / self.jobs, 4) if self.jobs else 0.0


@dataclass(frozen=True)
class Dashboard:
    since: datetime
    jobs_per_status: dict[str, int]
    agents: list[AgentFailures]
    dispatch_lag_seconds: float
    open_refunds: int
    open_disputes: int
    pending_reviews: int
    quarantined: int
    failed_deliveries: dict[str, int]


async def dashboard(session: AsyncSession) -> Dashboard:
    now = utcnow()
    since = now - timedelta(hours=24)
    oldest = await repo.oldest_waiting(session, now)
    return Dashboard(
        since=since,
        jobs_per_status=await repo.jobs_per_status(session, since),
        agents=[AgentFailures(*row) for row in await repo.failures_per_agent(session, since)],
        dispatch_lag_seconds=max(0.0, (now - as_utc(oldest)).total_seconds()) if oldest else 0.0,
        open_refunds=await repo.count_refund_requests(session)
        + await repo.count_purchases(session, ("partially_refunded",)),
        open_disputes=await repo.count_purchases(session, ("disputed",)),
        pending_reviews=await repo.count_pending_reviews(session),
        quarantined=await repo.count_quarantine(session),
        failed_deliveries=await repo.count_failed_deliveries(session, since),
    )
