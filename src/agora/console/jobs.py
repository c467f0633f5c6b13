"""The operator's jobs: search every workspace's, one job's whole story (events, ledger,
deliveries, files, payment state), and the cancelling of a suspended account's or
organization's unfinished jobs (``cancel_unfinished``)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from agora.audit import service as audit
from agora.console import repository as repo
from agora.jobs import lifecycle, signals
from agora.kit.errors import BadRequest, Conflict, NotFound
from agora.kit.ids import parse_uuid
from agora.models import Agent, Job, JobEvent, LedgerEntry, StoredFile
from agora.models.statuses import JobStatus


@dataclass(frozen=True)
class JobFilters:
    q: str | None = None  # a job id
    agent: str | None = None  # an agent id, registry identifier or part of its name
    status: str | None = None
    workspace: str | None = None  # a workspace id


@dataclass(frozen=True)
class ListedJob:
    job: Job
    agent_name: str


async def search_jobs(
    session: AsyncSession, filters: JobFilters, *, limit: int, offset: int = 0
) -> tuple[list[ListedJob], int]:
    """Jobs of every workspace, newest first. A filter that is not what it names: 400."""
    job_id = workspace_id = None
    if filters.q and filters.q.strip():
        job_id = parse_uuid(filters.q.strip())
        if job_id is None:
            raise BadRequest.field("q", "must be a job id (UUID)")
    if filters.workspace and filters.workspace.strip():
        workspace_id = parse_uuid(filters.workspace.strip())
        if workspace_id is None:
            raise BadRequest.field("workspace", "must be a workspace id (UUID)")
    status = (filters.status or "").strip().upper()
    if status and status not in set(JobStatus):
        raise BadRequest.field("status", f"must be one of {', '.join(JobStatus)}")
    rows, total = await repo.search_jobs(
        session,
        job_id=job_id,
        agent=(filters.agent or "").strip()[:100],
        status=status,
        workspace_id=workspace_id,
        limit=limit,
        offset=offset,
    )
    return [ListedJob(job, name) for job, name in rows], total


@dataclass(frozen=True)
class Delivery:
    """A webhook or mail delivery about the job (the target without its query string)."""

    channel: str
    event: str
    target: str
    state: str
    attempts: int
    last_status_code: int | None
    last_error: str | None
    delivered_at: datetime | None
    created_at: datetime


@dataclass
class JobDetail:
    job: Job
    agent: Agent
    events: list[JobEvent]
    ledger: list[LedgerEntry]
    deliveries: list[Delivery]
    files: list[StoredFile]

    @property
    def payment(self) -> dict[str, Any]:
        """The payment state the Masumi backend keeps (blockchain identifier, on-chain state,
        refundStuck …) with the job's own money columns."""
        job = self.job
        return {
            "backend": job.payment_backend,
            "blockchainIdentifier": job.blockchain_identifier,
            "onChainStatus": job.on_chain_status,
            "refundRequestedAt": job.refund_requested_at,
            "settled": job.settled,
            "state": audit.without_secrets(job.payment),
        }


async def job_detail(session: AsyncSession, raw_job_id: str) -> JobDetail:
    """A job of any workspace with its events in order, its credits ledger entries (hold,
    capture, refund), its webhook/mail deliveries and its files (fetched inputs, outputs).
    Calls to the agent are recorded as the job's events (dispatch, status polls, errors)."""
    job_id = parse_uuid(raw_job_id)
    found = await repo.job_with_agent(session, job_id) if job_id else None
    if found is None:
        raise NotFound(f"Job {raw_job_id} not found")
    job, agent = found
    deliveries = [
        Delivery(
            d.channel,
            d.event,
            d.target.split("?", 1)[0],
            d.state,
            d.attempts,
            d.last_status_code,
            d.last_error,
            d.delivered_at,
            d.created_at,
        )
        for d in await repo.job_deliveries(session, job.id)
    ]
    return JobDetail(
        job=job,
        agent=agent,
        events=await repo.events_of(session, job.id),
        ledger=await repo.job_ledger(session, job.id),
        deliveries=deliveries,
        files=await repo.job_files(session, job.id),
    )


async def refund_job(
    session: AsyncSession, actor: audit.Actor, raw_job_id: str, reason: str
) -> JobDetail:
    """Refund a completed credit-priced job of any workspace (docs/billing.md, "Paying
    sellers"): the buyer's credits back and the seller's earning reversed, once. 409 when the
    job is not a completed credit job or was refunded already."""
    job_id = parse_uuid(raw_job_id)
    found = await repo.job_with_agent(session, job_id) if job_id else None
    if found is None:
        raise NotFound(f"Job {raw_job_id} not found")
    job = found[0]
    balance = await lifecycle.refund_completed(session, job, reason=reason)
    if balance is None:
        raise Conflict(
            f"Job {job.id} is not a completed job paid with credits that was not refunded yet "
            "(a job paid on a payment node is refunded by the node; a failed or cancelled one "
            "was refunded when it ended)"
        )
    await audit.record(
        session,
        "job.refunded",
        actor=actor,
        target_kind="job",
        target_id=job.id,
        workspace_id=job.workspace_id,
        details={"amount": job.price, "reason": reason[:500], "balanceAfter": balance},
    )
    return await job_detail(session, str(job.id))


# ---- suspension's part: the unfinished jobs ------------------------------------------------


async def cancel_unfinished(session: AsyncSession, jobs: list[Job], reason: str) -> tuple[int, int]:
    """Cancel a suspended account's or organization's unfinished jobs and refund their held
    credits: (cancelled, left to a payment node's refund flow)."""
    cancelled = left = 0
    woke = False
    for job in jobs:
        paid_on_node: dict[str, Any] = {}
        if job.payment_backend is not None:
            if job.status != lifecycle.INPUT_REQUIRED:
                left += 1
                continue
            paid_on_node = lifecycle.parked_cancellation(job)
            woke = True
        if await lifecycle.transition(
            session,
            job,
            lifecycle.CANCELLED,
            detail={"reason": reason},
            **paid_on_node,
        ):
            cancelled += 1
        else:
            left += 1
    if woke:
        await signals.job_ready(session)
    return cancelled, left
