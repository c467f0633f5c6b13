"""All SQL of the dispatch queue (the jobs table is the queue).

A job is claimable when it is ``queued`` and due, or ``leased`` by a worker whose lease expired
(that worker died or hung). A claim is one conditional UPDATE: ``FOR UPDATE SKIP LOCKED`` on
PostgreSQL so workers never wait for each other; on SQLite the surrounding write transaction
(``BEGIN IMMEDIATE``) already serialises writers and the clause is not rendered.
"""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from sqlalchemy import and_, func, or_, select, update
from sqlalchemy.engine import CursorResult
from sqlalchemy.ext.asyncio import AsyncSession

from agora.kit.leases import claim_due
from agora.models import Agent, AgentVersion, Job, JobEvent
from agora.models.statuses import DispatchState

QUEUED, LEASED = DispatchState.QUEUED, DispatchState.LEASED


def _claimable(now: datetime) -> Any:
    return or_(
        and_(Job.dispatch_state == QUEUED, Job.next_attempt_at <= now),
        and_(Job.dispatch_state == LEASED, Job.lease_expires_at < now),
    )


async def claim(
    session: AsyncSession, *, owner: str, now: datetime, lease_until: datetime, limit: int
) -> list[uuid.UUID]:
    # A lease is bookkeeping, not a change anyone sees: updated_at (the feed's order) stays.
    lease = {
        "dispatch_state": LEASED,
        "lease_owner": owner,
        "lease_expires_at": lease_until,
        "updated_at": Job.updated_at,
    }
    return await claim_due(
        session, Job, due=_claimable(now), order_by=Job.next_attempt_at, limit=limit, values=lease
    )


async def load(session: AsyncSession, job_id: uuid.UUID) -> tuple[Job, str, str] | None:
    """The job, the base URL it runs against — its version's (docs/developer.md, "Versions"),
    or the agent's own for a job made before versions — and the agent's protocol (``mip003`` |
    ``a2a``)."""
    row = (
        await session.execute(
            select(Job, func.coalesce(AgentVersion.base_url, Agent.base_url), Agent.protocol)
            .join(Agent, Agent.id == Job.agent_id)
            .outerjoin(
                AgentVersion,
                and_(
                    AgentVersion.agent_id == Job.agent_id, AgentVersion.number == Job.agent_version
                ),
            )
            .where(Job.id == job_id)
        )
    ).first()
    return (row[0], str(row[1]), str(row[2])) if row else None


async def a2a_agent(
    session: AsyncSession, agent_id: uuid.UUID
) -> tuple[dict[str, Any] | None, str | None] | None:
    """An A2A agent's card (as read) and sealed credential (docs/a2a.md)."""
    row = (
        await session.execute(
            select(Agent.a2a_card, Agent.a2a_credential).where(Agent.id == agent_id)
        )
    ).first()
    return (row[0], row[1]) if row else None


async def traceparent(session: AsyncSession, job_id: uuid.UUID) -> str | None:
    """The W3C traceparent admission stored with the job (tracing on: kit/telemetry.py)."""
    detail = (
        await session.execute(
            select(JobEvent.detail).where(JobEvent.job_id == job_id, JobEvent.type == "created")
        )
    ).scalar()
    found = (detail or {}).get("traceparent")
    return found if isinstance(found, str) else None


async def get(session: AsyncSession, job_id: uuid.UUID) -> Job | None:
    return await session.get(Job, job_id)


async def release(session: AsyncSession, job_id: uuid.UUID, owner: str, **values: Any) -> bool:
    """Give the job back to the queue (with ``values``) if we still hold its lease.

    ``updated_at`` stays unless ``values`` sets it: the caller decides whether what it writes is
    a change a client would see (the history feed orders by it)."""
    values.setdefault("updated_at", Job.updated_at)
    result = await session.execute(
        update(Job)
        .where(Job.id == job_id, Job.lease_owner == owner, Job.dispatch_state == LEASED)
        .values(
            **{"dispatch_state": QUEUED, "lease_owner": None, "lease_expires_at": None, **values}
        )
        .execution_options(synchronize_session=False)
    )
    return isinstance(result, CursorResult) and result.rowcount == 1


async def next_due(session: AsyncSession) -> datetime | None:
    """When the next job becomes claimable (a due attempt or an expiring lease)."""
    row = (
        await session.execute(
            select(
                func.min(Job.next_attempt_at).filter(Job.dispatch_state == QUEUED),
                func.min(Job.lease_expires_at).filter(Job.dispatch_state == LEASED),
            )
        )
    ).one()
    times = [t for t in row if t is not None]
    return min(times) if times else None
