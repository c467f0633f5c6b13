"""Buyer refunds of jobs paid through a payment node (docs/payments.md, "Refunds").

Whether a refund may be asked, and its window, are ``jobs.refunds`` (the job page shows them
too). The request is recorded here; the dispatcher asks the node after commit (no transaction
is ever open across a call to the node).
"""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession

from agora.auth.principal import Permission, Principal
from agora.jobs import lifecycle, signals
from agora.jobs import service as jobs_service
from agora.jobs.refunds import refusal
from agora.kit.errors import Conflict
from agora.kit.timeutil import utcnow
from agora.payments import repository as repo
from agora.payments.states import (
    FUNDS_LOCKED,
)
from agora.settings import Settings


async def request_refund(
    session: AsyncSession, principal: Principal, job_id: str, *, settings: Settings
) -> jobs_service.ShownJob:
    principal.require(Permission.JOBS_WRITE)
    job = await jobs_service.visible_job(session, principal, job_id)
    problem = refusal(job)
    if problem is not None:
        raise Conflict(problem)
    state = job.on_chain_status
    now = utcnow()
    if not await repo.mark_refund_requested(session, job.id, job.status, now):
        # Lost the compare-and-set: say why from what the winner committed (usually that a
        # refund is asked once per job), so one outcome has one message.
        await session.refresh(job)
        raise Conflict(refusal(job) or f"Job {job.id} changed while the refund was asked")
    await lifecycle.record_event(
        session,
        job,
        "refund_requested",
        detail={"onChainStatus": state, "kind": "dispute" if state != FUNDS_LOCKED else "refund"},
    )
    await signals.job_ready(session)
    await session.refresh(job)
    return await jobs_service.shown_one(session, job, settings)
