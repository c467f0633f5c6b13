"""The console's dashboard: the last 24 hours of jobs per status and per agent, the dispatch
lag, and what waits for an operator (refunds, disputes, reviews, the registry quarantine,
failed deliveries)."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy.ext.asyncio import AsyncSession

from agora.console import repository as repo
from agora.console.schemas import AgentFailuresOut, DashboardOut
from agora.kit.timeutil import as_utc, utcnow


def _failures(agent_id: str, name: str, jobs: int, failed: int) -> AgentFailuresOut:
    rate = round(failed / jobs, 4) if jobs else 0.0
    return AgentFailuresOut(
        agent_id=agent_id, name=name, jobs=jobs, failed=failed, failure_rate=rate
    )


async def dashboard(session: AsyncSession) -> DashboardOut:
    """What the admin API answers and the dashboard page shows."""
    now = utcnow()
    since = now - timedelta(hours=24)
    oldest = await repo.oldest_waiting(session, now)
    return DashboardOut(
        since=since,
        jobs_per_status=await repo.jobs_per_status(session, since),
        agents=[_failures(*row) for row in await repo.failures_per_agent(session, since)],
        dispatch_lag_seconds=max(0.0, (now - as_utc(oldest)).total_seconds()) if oldest else 0.0,
        open_refunds=await repo.count_refund_requests(session)
        + await repo.count_purchases(session, ("partially_refunded",)),
        open_disputes=await repo.count_purchases(session, ("disputed",)),
        pending_reviews=await repo.count_pending_reviews(session),
        quarantined=await repo.count_quarantine(session),
        failed_deliveries=await repo.count_failed_deliveries(session, since),
    )
